import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

@Suite struct MatcherParsingTests {
  private func matchers(_ yaml: String) -> [[Matcher.Kind]] {
    let (scenario, _) = load(MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n" + yaml))
    return scenario?.steps.first?.expectations.map { $0.matchers.map(\.kind) } ?? []
  }

  @Test func plainValuesMappingsOfMatchersAndObjects() {
    #expect(matchers("      a: 1") == [[.equals]])
    #expect(matchers("      a: { equals: 1, not_equals: 2 }") == [[.equals, .notEquals]])
    #expect(matchers("      a: { name: alice, age: 3 }") == [[.equals]])
    #expect(matchers("      a: [1, 2]") == [[.equals]])
    #expect(
      matchers(
        "      a: { matches: '^a+$', contains: x, starts_with: y, one_of: [1], type: string, gt: 1, lte: 2.5 }")
        == [[.matches, .contains, .startsWith, .oneOf, .type, .gt, .lte]])
    #expect(matchers("      a: { within: { of: 10, seconds: 5s } }") == [[.within]])
  }

  @Test func anObjectOperandKeepsItsMembers() throws {
    let (scenario, _) = load(MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n      a: { name: alice }"))
    let matcher = try #require(scenario?.steps.first?.expectations.first?.matchers.first)
    #expect(matcher.operand.literalValue == ["name": "alice"])
  }

  @Test func misspeltMatcherBesideOthers() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { exists: true, 1️⃣not_equal: 3 }
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "unknown matcher 'not_equal'", hint: "did you mean 'not_equals'?")
  }

  @Test func misspeltMatcherAlone() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { 1️⃣startswith: abc }
      """)
    let found = expectDiagnostic(diagnostics(input), at: input["1️⃣"], "unknown matcher 'startswith'")
    #expect(found?.hint?.hasPrefix("did you mean 'starts_with'?") == true)
  }

  @Test func mixOfMatchersAndPlainKeys() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { equals: 1, 1️⃣name: alice }
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "'name' is not a matcher, but the mapping also has the matcher 'equals'",
      hint: "use only matcher keys here, or write 'equals: { … }' to compare with an object")
  }

  @Test func invalidLiteralRegex() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { matches: 1️⃣"([a-z" }
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "invalid regular expression '([a-z'")
  }

  @Test func badOperands() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { exists: 1️⃣yes please }
            b: { type: 2️⃣strng }
            c: { gt: 3️⃣ten }
            d: { one_of: 4️⃣x }
            e: { within: 5️⃣{ of: 1 } }
            6️⃣"f..g": 1
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "'exists' expects true or false, found a string")
    expectDiagnostic(found, at: input["2️⃣"], "unknown type 'strng'", hint: "did you mean 'string'?")
    expectDiagnostic(found, at: input["3️⃣"], "'gt' expects a number, found a string")
    expectDiagnostic(found, at: input["4️⃣"], "'one_of' expects a list of values, found a string")
    expectDiagnostic(found, at: input["5️⃣"], "missing required key 'seconds' in 'within'")
    expectDiagnostic(found, at: input["6️⃣"], "invalid path 'f..g': it has an empty segment")
  }
}
