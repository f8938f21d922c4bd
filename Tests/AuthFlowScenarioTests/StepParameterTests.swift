import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// A parameter of type `step` (`outbox`'s `after:`) names an earlier step as written: the parser
/// refuses an expression or a non-string, the validator a step that does not run first.
@Suite struct StepParameterTests {
  static let catalog = ActionCatalog([
    ActionSignature(name: "logout", summary: "Clears the session."),
    ActionSignature(
      name: "outbox", summary: "Reads a message.",
      parameters: [
        ParameterSignature("to", .string, required: true), ParameterSignature("after", .step),
      ]),
  ])

  private func found(_ input: MarkedText) -> [Diagnostic] {
    diagnostics(input, catalog: Self.catalog)
  }

  @Test func anEarlierStepIsAccepted() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: send
          logout:
        - id: read
          outbox: { to: a@example.com, after: send }
      """)
    #expect(found(input).isEmpty)
  }

  @Test func anEarlierStepInAnotherBranchIsAnAncestorThroughNeeds() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: send
          logout:
        - id: other
          needs: []
          logout:
        - id: read
          needs: [other]
          outbox: { to: a@example.com, after: 1️⃣send }
      """)
    expectDiagnostic(
      found(input), at: input["1️⃣"],
      "parameter 'after' of step 'read' names step 'send', but 'send' does not run before it",
      hint: "add 'send' to the 'needs' of 'read'")
  }

  @Test func anUnknownStepGetsASuggestion() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: resend
          logout:
        - id: read
          outbox: { to: a@example.com, after: 1️⃣resned }
      """)
    expectDiagnostic(
      found(input), at: input["1️⃣"], "names step 'resned', but there is no step 'resned'",
      hint: "did you mean 'resend'?")
  }

  @Test func aLaterStepItselfAndCleanupAreRefused() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: read
          outbox: { to: a@example.com, after: 1️⃣later }
        - id: later
          logout:
        - id: again
          outbox: { to: a@example.com, after: 2️⃣again }
        - id: last
          outbox: { to: a@example.com, after: 3️⃣tidy }
      cleanup:
        - id: tidy
          logout:
      """)
    let diagnostics = found(input)
    expectDiagnostic(diagnostics, at: input["1️⃣"], "names step 'later', but 'later' does not run before it")
    expectDiagnostic(
      diagnostics, at: input["2️⃣"], "names step 'again', but a step cannot name itself",
      hint: "name a step that runs before 'again'")
    expectDiagnostic(diagnostics, at: input["3️⃣"], "names step 'tidy', but cleanup runs after every other step")
  }

  @Test func aGeneratedIDCannotBeNamed() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - logout:
        - id: read
          outbox: { to: a@example.com, after: 1️⃣step-1 }
      """)
    expectDiagnostic(found(input), at: input["1️⃣"], "'step-1' is a generated id and cannot be referred to")
  }

  @Test func anExpressionOrANumberIsNotAStepID() {
    let input = MarkedText(
      """
      scenario: x
      vars: { which: send }
      steps:
        - id: send
          logout:
        - id: read
          outbox: { to: a@example.com, after: 1️⃣"${{ vars.which }}" }
        - id: read_again
          outbox: { to: a@example.com, after: 2️⃣12 }
      """)
    let diagnostics = found(input)
    expectDiagnostic(
      diagnostics, at: input["1️⃣"],
      "parameter 'after' of action 'outbox' must be the id of an earlier step (as written, not an expression)")
    expectDiagnostic(
      diagnostics, at: input["2️⃣"], "parameter 'after' of action 'outbox' must be the id of an earlier step")
  }
}
