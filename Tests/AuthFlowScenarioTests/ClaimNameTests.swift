import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// A misspelt claim name under a check that holds when the claim is absent passes whatever the
/// token says; `authflow validate` warns at the name, with the claim it is close to.
@Suite struct ClaimNameTests {
  @Test func aNearMissUnderACheckThatHoldsOnAbsenceIsAWarning() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: login
          set: { id_token: t }
          expect:
            id_token.claims.1️⃣nonse: { exists: false }
            access_token.claims.2️⃣org_di: { not_equals: org_1 }
            id_token.claims.3️⃣emial: { not_one_of: [a] }
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"], "'nonse' is not a claim a token is known to carry, and exists holds when it is absent",
      hint: "did you mean 'nonce'? (if 'nonse' is your tenant's own claim, this check is fine)", severity: .warning)
    expectDiagnostic(found, at: input["2️⃣"], "'org_di' is not a claim", severity: .warning)
    expectDiagnostic(found, at: input["3️⃣"], "'emial' is not a claim", severity: .warning)
    #expect(found.count == 3)
    #expect(found.first?.length == "nonse".count)
  }

  /// Known claims, names far from any, checks that fail on absence, and paths outside a token's
  /// claims are left alone.
  @Test func everythingElseIsQuiet() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - id: login
          set: { id_token: t, body: { nonse: 1 } }
          expect:
            id_token.claims.nonce: { exists: false }
            id_token.claims.org_id: { not_equals: org_1 }
            id_token.claims.nonse: { exists: true }
            id_token.claims.emial: mail
            id_token.claims["https://example.com/roles"]: { exists: false }
            id_token.claims.tenant_tier: { exists: false }
            body.nonse: { exists: false }
      """)
    #expect(diagnostics(input).map(\.message) == [])
  }
}
