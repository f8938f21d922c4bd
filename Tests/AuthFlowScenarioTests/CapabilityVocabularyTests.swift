import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// `requires`, a tenant's `capabilities` and a scenario's `client:` name things that must exist:
/// a typo is an error with "did you mean", not a silent skip.
@Suite struct CapabilityVocabularyTests {
  static let projectText = """
    tenants:
      mock: { kind: mock }
      staging:
        kind: auth0
        domain: example.auth0.com
        clients:
          native: { client_id: abc }
          web: { client_id: def }
        capabilities: [passwordless, billing_portal]
        custom_capabilities: [billing_portal]
    """

  static func project() throws -> ProjectConfig {
    let (config, diagnostics) = ProjectConfigParser().parse(projectText, file: "authflow.yaml")
    expectClean(diagnostics)
    return try #require(config)
  }

  @Test func unknownRequiresIsAnErrorWithSuggestion() throws {
    let input = MarkedText(
      """
      scenario: x
      requires: [1️⃣passwordles, billing_portal, 2️⃣biling_portal]
      steps:
        - logout:
      """)
    let found = try Self.project().check(try #require(load(input).scenario))
    expectDiagnostic(found, at: input["1️⃣"], "unknown capability 'passwordles'", hint: "did you mean 'passwordless'?")
    expectDiagnostic(
      found, at: input["2️⃣"], "unknown capability 'biling_portal'", hint: "did you mean 'billing_portal'?")
    #expect(found.count == 2)
  }

  @Test func unknownTenantCapabilityIsAnError() {
    let input = MarkedText(
      """
      tenants:
        staging:
          kind: auth0
          domain: example.auth0.com
          capabilities: [1️⃣organisations]
          custom_capabilities: [2️⃣pkce]
      """)
    let (_, found) = ProjectConfigParser().parse(input.text, file: testFile)
    expectDiagnostic(found, at: input["1️⃣"], "unknown capability 'organisations'", hint: "did you mean 'organizations'?")
    expectDiagnostic(
      found, at: input["2️⃣"], "'pkce' is a built-in capability; it need not be declared", severity: .warning)
  }

  @Test func clientMustBeDefinedBySomeTenant() throws {
    let input = MarkedText(
      """
      scenario: x
      client: 1️⃣nativ
      steps:
        - logout:
      """)
    let project = try Self.project()
    let scenario = try #require(load(input).scenario)
    // The mock's fixture clients count for the mock tenant.
    let found = project.check(scenario, profiles: ["mock": ProfileNames(clients: ["native", "m2m"], users: [])])
    expectDiagnostic(
      found, at: input["1️⃣"], "no tenant defines a client profile 'nativ' (known: m2m, native, web)",
      hint: "did you mean 'native'?")
    // A fixture known only at run time may define any client.
    expectClean(project.check(scenario, profiles: ["mock": ProfileNames?.none]))
    let fine = try #require(load(MarkedText("scenario: x\nclient: m2m\nsteps:\n  - logout:\n")).scenario)
    expectClean(project.check(fine, profiles: ["mock": ProfileNames(clients: ["native", "m2m"], users: [])]))
  }
}
