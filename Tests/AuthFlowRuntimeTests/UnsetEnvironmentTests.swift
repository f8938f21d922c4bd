import AuthFlowCore
import AuthFlowMockHosting
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// A tenant profile's `${{ env.NAME }}` whose variable is not set read as `null`: a CI job that
/// forgot to export a secret ran with a null password, and a negated check against the profile
/// held. The tenant now refuses to start, naming each unset variable at its position, unless the
/// read copes with the absence (`default(env.NAME, …)`, `env.NAME || …`).
@Suite struct UnsetEnvironmentTests {
  static let yaml = """
    tenants:
      mock:
        kind: mock
        users:
          carol: { email: "${{ env.CAROL_EMAIL }}", password: "${{ env.CAROL_PASSWORD }}" }
          dave: { email: "${{ default(env.DAVE_EMAIL, 'dave@example.com') }}", name: "${{ env.DAVE_NAME || 'Dave' }}" }
    """

  static func resolve(environment: [String: String]) async throws -> Result<ResolvedTenant, TenantResolutionError> {
    let (config, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
    #expect(!diagnostics.hasErrors, "an expression is checked when the tenant is used")
    let profile = try #require(config?.tenant(named: "mock"))
    let resolver = TenantResolver(
      embedded: MockTenantHost(), environment: environment, secrets: SecretRegistry(), projectDirectory: ".")
    do {
      return .success(try await resolver.resolve(profile))
    } catch {
      return .failure(error)
    }
  }

  @Test func anUnsetVariableStopsTheTenantAtItsPosition() async throws {
    guard case .failure(let error) = try await Self.resolve(environment: ["CAROL_EMAIL": "carol@example.com"]) else {
      Issue.record("the tenant started with CAROL_PASSWORD unset")
      return
    }
    #expect(!error.isEnvironment, "a missing variable is the run's input, exit 2")
    #expect(error.message == "env.CAROL_PASSWORD is not set")
    #expect(error.diagnostics.map(\.message) == ["tenant 'mock' reads env.CAROL_PASSWORD, which is not set"])
    #expect(error.diagnostics.first?.location?.line == 5)
    #expect(error.diagnostics.first?.hint?.contains("default(env.CAROL_PASSWORD, '…')") == true)
  }

  @Test func setVariablesAndReadsThatCopeWithAbsenceStart() async throws {
    let result = try await Self.resolve(environment: ["CAROL_EMAIL": "carol@example.com", "CAROL_PASSWORD": "p"])
    guard case .success(let tenant) = result else {
      Issue.record("\(result)")
      return
    }
    #expect(tenant.context.users["dave"]?.objectValue?["email"] == "dave@example.com")
    #expect(tenant.context.users["dave"]?.objectValue?["name"] == "Dave")
    await tenant.stop()
  }
}
