import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// `severity:` on a step and beside an expectation's matchers (a SHOULD is a warning).
@Suite struct SeverityParsingTests {
  @Test func besideMatchersAndOnAStep() throws {
    let (scenario, diagnostics) = load(
      MarkedText(
        """
        scenario: x
        steps:
          - id: a
            severity: warning
            logout:
            expect:
              status: { equals: 200, severity: error }
              body.x: { exists: true, severity: warning }
              body.y: 3
        """))
    expectClean(diagnostics)
    let step = try #require(scenario?.steps.first)
    #expect(step.severity?.value == .warning)
    #expect(step.expectations.map { $0.severity?.value } == [.error, .warning, nil])
    // `severity` is not a matcher: the matchers stay as written.
    #expect(step.expectations.map { $0.matchers.map(\.kind) } == [[.equals], [.exists], [.equals]])
  }

  @Test func withoutSeverityNothingChanges() throws {
    let (scenario, _) = load(MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n      a: { exists: true }"))
    let step = try #require(scenario?.steps.first)
    #expect(step.severity == nil)
    #expect(step.expectations.first?.severity == nil)
  }

  @Test func anUnknownSeverityIsAnErrorWithDidYouMean() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - severity: 1️⃣warnig
          logout:
          expect:
            a: { equals: 1, severity: 2️⃣fatal }
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "'warnig' is not a severity", hint: "did you mean 'warning'?")
    expectDiagnostic(found, at: input["2️⃣"], "'fatal' is not a severity")
  }

  @Test func severityAloneIsNotAMatcher() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { 1️⃣severity: warning }
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "'severity' needs a matcher beside it",
      hint: "write e.g. '{ equals: …, severity: warning }', or 'equals: { severity: … }' to compare with an object")
  }

  /// Beside `severity`, every key must be a matcher: an object with a `severity` key is compared
  /// by `equals: { … }`, never by writing it plainly.
  @Test func anObjectWithASeverityKeyIsComparedWithEquals() throws {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          expect:
            a: { severity: warning, 1️⃣level: 3 }
            b: { equals: { severity: warning, level: 3 } }
      """)
    let (scenario, diagnostics) = load(input)
    let found = expectDiagnostic(diagnostics, at: input["1️⃣"], "unknown matcher 'level'")
    #expect(found?.hint?.hasSuffix("write 'equals: { level: … }'") == true)
    #expect(diagnostics.count == 1)
    let expectation = try #require(scenario?.steps.first?.expectations.last)
    #expect(expectation.severity == nil)
    #expect(expectation.matchers.first?.operand.literalValue == ["severity": "warning", "level": 3])
  }
}
