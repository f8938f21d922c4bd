import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// Numbers out of their documented range, and inputs past a resource limit, are located
/// diagnostics at validate time — the issue's crashing inputs among them.
@Suite struct InputLimitTests {
  static let clockCatalog = ActionCatalog([
    ActionSignature(
      name: "mock_clock", summary: "Moves the clock.",
      parameters: [ParameterSignature("advance", .clockShift, required: true)],
      scalarForm: ParameterSignature("advance", .clockShift))
  ])

  @Test func hugeScenarioTimeout() {
    let input = MarkedText(
      """
      scenario: x
      timeout: 1️⃣1e38
      steps:
        - logout:
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "'1e38' is too long for 'timeout' (the range is 0 to 24h)")
  }

  @Test func hugeStepTimeoutAndWait() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - wait: 1️⃣2562047788015215h
          timeout: 2️⃣25h
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "'2562047788015215h' is too long for 'wait'")
    expectDiagnostic(found, at: input["2️⃣"], "'25h' is too long for 'timeout'")
  }

  @Test func hugeRetryBackoffAndAttempts() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          retry: { attempts: 1️⃣1000, delay: 10ms, backoff: 2️⃣1e300 }
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "retry 'attempts' must be a whole number from 1 to 100")
    expectDiagnostic(found, at: input["2️⃣"], "retry 'backoff' must be a number from 1 to 10")
  }

  @Test func hugeWithinTolerance() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: a
          logout:
          expect:
            status: { within: { of: 1, seconds: 1️⃣1e308 } }
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "'1e308' is too long for 'seconds' (the range is 0 to 8784h)")
  }

  @Test func hugeMockClock() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - mock_clock: 1️⃣9223372036854775807h
        - mock_clock: { advance: 2️⃣-10001h }
        - mock_clock: -10000h
      """)
    let found = diagnostics(input, catalog: Self.clockCatalog)
    expectDiagnostic(found, at: input["1️⃣"], "is too long for 'mock_clock' (the range is -10000h to 10000h)")
    expectDiagnostic(found, at: input["2️⃣"], "'-10001h' is too long for 'advance'")
    #expect(found.count == 2)
  }

  @Test func aBillionLaughsFailsFastAtTheAlias() {
    // The 396-byte bomb of the issue: nine levels of ten aliases.
    var yaml = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
    for (previous, name) in zip(names, names.dropFirst()) {
      yaml += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
    }
    let start = ContinuousClock.now
    let found = ScenarioLoader(catalog: .test).load(text: yaml, file: testFile).diagnostics
    #expect(ContinuousClock.now - start < .seconds(10))  // unguarded, this takes minutes and gigabytes
    #expect(found.count == 1)
    #expect(found.first?.message.contains("expands to more than \(InputLimits.yamlNodes) YAML nodes") == true)
    #expect(found.first?.location?.line ?? 0 > 1)
  }

  @Test func aliasesAsMappingKeysAreCountedToo() {
    var yaml = "a: &a [x,x,x,x,x,x,x,x,x,x]\n"
    let names = ["a", "b", "c", "d", "e", "f", "g"]
    for (previous, name) in zip(names, names.dropFirst()) {
      yaml += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]\n"
    }
    yaml += "k: { ? *g : 1 }\n"
    let start = ContinuousClock.now
    let found = ScenarioLoader(catalog: .test).load(text: yaml, file: testFile).diagnostics
    #expect(ContinuousClock.now - start < .seconds(10))  // unguarded, this takes minutes and gigabytes
    #expect(found.first?.message.contains("YAML nodes") == true)
  }

  /// Past libyaml's own limit (1,000 levels) its located error comes first; either way no stack overflow.
  @Test(arguments: [100, 100_000])
  func deepYAMLIsAnError(depth: Int) {
    let yaml = "scenario: x\nsteps: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let found = ScenarioLoader(catalog: .test).load(text: yaml, file: testFile).diagnostics
    #expect(found.count == 1)
    #expect(
      found.contains {
        $0.message.contains("nested more than \(InputLimits.yamlDepth) deep") || $0.message.contains("nesting level")
      }, "\(found.map(\.description))")
  }

  @Test func largeFilesAreAnError() {
    let yaml = "scenario: x\n#" + String(repeating: "x", count: InputLimits.fileBytes) + "\n"
    let found = ScenarioLoader(catalog: .test).load(text: yaml, file: testFile).diagnostics
    #expect(found.first?.message.contains("more than the limit of \(InputLimits.fileBytes) bytes") == true)
  }

  @Test func aTenAxisMatrixIsNotMaterialised() {
    let axes = (0..<10).map { "  m\($0): [0,1,2,3,4,5,6,7,8,9]" }.joined(separator: "\n")
    let input = MarkedText("scenario: x\nmatrix:\n  1️⃣" + axes.dropFirst(2) + "\nsteps:\n  - logout:\n")
    let start = ContinuousClock.now
    let (scenario, found) = load(input)
    #expect(ContinuousClock.now - start < .seconds(10))  // unguarded, this takes minutes and gigabytes
    expectDiagnostic(found, at: input["1️⃣"], "the matrix expands to more than \(InputLimits.matrixInstances) instances")
    #expect(scenario?.instances.count == 1)
  }

  @Test func tooManyStepsIsAnError() {
    let steps = String(repeating: "  - logout:\n", count: InputLimits.stepsPerScenario + 1)
    let found = ScenarioLoader(catalog: .test).load(text: "scenario: x\nsteps:\n" + steps, file: testFile).diagnostics
    #expect(found.contains { $0.message.contains("more than the limit of \(InputLimits.stepsPerScenario)") })
  }

  @Test func deepExpressionsInAScenarioAreAnError() {
    let expression = String(repeating: "(", count: 8_000) + "1" + String(repeating: ")", count: 8_000)
    let yaml = "scenario: x\nsteps:\n  - assert: \"${{ \(expression) }}\"\n"
    let found = ScenarioLoader(catalog: .test).load(text: yaml, file: testFile).diagnostics
    #expect(found.contains { $0.message.contains("nested more than") })
  }
}
