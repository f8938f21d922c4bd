import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// One test per kind of problem the parser reports, each located with a marker.
@Suite struct ParserDiagnosticsTests {
  @Test func unknownTopLevelKeyWithSuggestion() {
    let input = MarkedText(
      """
      scenario: x
      1️⃣tag: [a]
      steps:
        - logout:
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "unknown key 'tag' in the scenario", hint: "did you mean 'tags'?")
  }

  @Test func unknownStepKeyWithSuggestion() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          1️⃣expct: { status: 200 }
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "unknown key 'expct' in a step", hint: "did you mean 'expect'?")
  }

  @Test func unknownActionWithSuggestion() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - 1️⃣web_auht: { scope: openid }
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "unknown action 'web_auht'", hint: "did you mean 'web_auth'?")
    #expect(found.count == 1, "no 'has no action' on top of the unknown action")
  }

  @Test func wrongTypeSaysWhatWasExpectedAndFound() {
    let input = MarkedText(
      """
      scenario: x
      tags:
        1️⃣a: b
      steps:
        - logout:
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "expected a list of strings for 'tags', found a mapping")
  }

  @Test func missingScenarioAndSteps() {
    let input = MarkedText(
      """
      1️⃣description: nothing else
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "missing required key 'scenario'")
    expectDiagnostic(found, at: input["1️⃣"], "missing required key 'steps'", hint: "add 'steps:' with at least one step")
  }

  @Test func emptyStepList() {
    let input = MarkedText(
      """
      scenario: x
      steps: 1️⃣[]
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "the scenario has no steps")
  }

  @Test func stepWithoutAction() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - 1️⃣id: lonely
          expect: { status: 200 }
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "the step has no action")
  }

  @Test func stepWithTwoActions() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - 1️⃣http: { url: "https://example.com" }
          2️⃣wait: 1s
      """)
    let found = expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "a step runs exactly one action, found 'http' and 'wait'")
    #expect(found?.notes.first?.location?.line == input["2️⃣"].line)
  }

  @Test func duplicateStepIDPointsAtTheFirst() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: 1️⃣login
          logout:
        - id: 2️⃣login
          logout:
      """)
    let found = expectDiagnostic(diagnostics(input), at: input["2️⃣"], "duplicate step id 'login'")
    #expect(found?.notes.first?.message == "'login' first defined here")
    #expect(found?.notes.first?.location?.line == input["1️⃣"].line)
    #expect(found?.notes.first?.location?.column == input["1️⃣"].column)
  }

  @Test func invalidAndReservedStepIDs() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: 1️⃣"log in"
          logout:
        - id: 2️⃣step-7
          logout:
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "'log in' is not a valid step id")
    expectDiagnostic(found, at: input["2️⃣"], "'step-7' is reserved for generated step ids")
  }

  @Test func badDurations() {
    let input = MarkedText(
      """
      scenario: x
      timeout: 1️⃣5 minutes
      steps:
        - wait: 2️⃣soon
          retry: { delay: 3️⃣fast }
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"], "'5 minutes' is not a duration (for 'timeout')",
      hint: "write a number with a unit: 250ms, 90s, 5m or 2h")
    // The short form names no parameter: the message names the action, not a hidden parameter.
    expectDiagnostic(found, at: input["2️⃣"], "'soon' is not a duration (for 'wait')")
    expectDiagnostic(found, at: input["3️⃣"], "'fast' is not a duration (for 'delay')")
  }

  @Test func badRetry() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
          retry: { attempts: 1️⃣0, backoff: 2️⃣0.5, 3️⃣unitl: true }
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "retry 'attempts' must be a whole number from 1 to 100, found 0")
    expectDiagnostic(found, at: input["2️⃣"], "retry 'backoff' must be a number from 1 to 10")
    expectDiagnostic(found, at: input["3️⃣"], "unknown key 'unitl' in 'retry'", hint: "did you mean 'until'?")
  }

  @Test func badNamesUnderVarsSaveAndMatrix() {
    let input = MarkedText(
      """
      scenario: x
      vars:
        1️⃣first-name: a
      matrix:
        browser: 2️⃣chrome
        3️⃣empty: []
      steps:
        - logout:
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "'first-name' cannot be used as a name under 'vars'")
    expectDiagnostic(found, at: input["2️⃣"], "expected a list of values for matrix 'browser', found a string")
    expectDiagnostic(found, at: input["3️⃣"], "matrix 'empty' has no values")
  }

  @Test func aStepThatIsNotAMapping() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - 1️⃣just text
      """)
    expectDiagnostic(diagnostics(input), at: input["1️⃣"], "expected a step (a mapping with an action such as 'http:')")
  }

  @Test func yamlSyntaxErrorsAreLocated() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - http: { url: 1️⃣
      """)
    let found = diagnostics(input)
    #expect(found.count == 1)
    #expect(found.first?.message.hasPrefix("invalid YAML") == true)
    #expect(found.first?.location?.line == input["1️⃣"].line + 1 || found.first?.location?.line == input["1️⃣"].line)
  }

  @Test func everyProblemInAFileIsReported() {
    let input = MarkedText(
      """
      scenario: x
      1️⃣tag: [a]
      steps:
        - 2️⃣web_auht: {}
        - logout:
          3️⃣expct: {}
        - wait: 4️⃣later
        - renew: { 5️⃣refresh_tokn: x }
      """)
    let found = diagnostics(input)
    expectDiagnostic(found, at: input["1️⃣"], "unknown key 'tag'")
    expectDiagnostic(found, at: input["2️⃣"], "unknown action 'web_auht'")
    expectDiagnostic(found, at: input["3️⃣"], "unknown key 'expct'")
    expectDiagnostic(found, at: input["4️⃣"], "'later' is not a duration")
    expectDiagnostic(found, at: input["5️⃣"], "unknown parameter 'refresh_tokn'")
    #expect(found.count == 6, "also: renew misses refresh_token — \(found.map(\.description))")
  }

  @Test func garbageNeverCrashes() {
    for text in [
      "", "[]", "- a\n- b", "scenario:", "steps: 3", "scenario: [x]\nsteps: [[], 1, null, {}]", "? [a]\n: b",
      "&a x: *a",
    ] {
      // None of these is a scenario: each is refused with a diagnostic, never a crash or a pass.
      #expect(diagnostics(MarkedText(text)).contains { $0.severity == .error }, "\(text.debugDescription)")
    }
  }
}
