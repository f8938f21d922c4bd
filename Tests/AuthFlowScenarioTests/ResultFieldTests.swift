import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// `steps.<id>.FIELD` and `expect` keys are checked against the fields the action declares.
@Suite struct ResultFieldTests {
  static let catalog = ActionCatalog([
    ActionSignature(
      name: "login", parameters: [ParameterSignature("username", .string)],
      results: .closed(ResultField.credentials)),
    ActionSignature(
      name: "userinfo", parameters: [ParameterSignature("token", .string)],
      results: .open([ResultField("sub", "the user")], others: "the tenant's claims")),
    ActionSignature(
      name: "assert", parameters: [ParameterSignature("that", .any)], scalarForm: ParameterSignature("that", .any),
      results: .closed([ResultField("value", "the value")])),
  ])

  @Test func typoInAStepReferenceIsAnErrorWithSuggestion() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: login
          login: { username: a }
        - assert: ${{ 1️⃣steps.login.id_tokn != null }}
      """)
    expectDiagnostic(
      diagnostics(input, catalog: Self.catalog), at: input["1️⃣"],
      "the result of step 'login' (login) has no field 'id_tokn'", hint: "did you mean 'id_token'?")
  }

  @Test func typoInAnExpectKeyIsAnErrorWithSuggestion() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: login
          login: { username: a }
          expect:
            1️⃣id_tokn.claims.email: alice@example.com
            error.code: { exists: false }
      """)
    let found = diagnostics(input, catalog: Self.catalog)
    expectDiagnostic(
      found, at: input["1️⃣"], "the result of step 'login' (login) has no field 'id_tokn'",
      hint: "did you mean 'id_token'?")
    #expect(found.count == 1, "error is always a field: \(found.map(\.description))")
  }

  @Test func declaredFieldsDynamicRestAndOpenResultsAreClean() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: login
          login: { username: a }
          expect:
            id_token.claims["https://example.com/roles"]: { exists: false }
            response.body.anything: { exists: true }
        - id: info
          userinfo: { token: "${{ steps.login.access_token }}" }
          expect: { whatever_the_tenant_sends: 1 }
        - assert: ${{ steps.info.anything && steps.login.refresh_token }}
      """)
    expectClean(diagnostics(input, catalog: Self.catalog))
  }
}
