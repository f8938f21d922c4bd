import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowReporting
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

@testable import AuthFlowResults

/// `--tenant a,b`: each scenario on each tenant, a verdict table, the first differing step (Issue 5).
/// Two embedded mocks over real HTTP: `mock-b` gives Alice another password and lacks a capability.
@Suite struct TenantComparisonTests {
  static let project = """
    tenants:
      mock: { kind: mock, custom_capabilities: [extra_feature] }
      mock-b:
        kind: mock
        users:
          alice: { email: alice@example.com, password: "not-alices-password-1!" }
    """

  static let scenarios = [
    """
    scenario: Discovery answers
    steps:
      - id: discovery
        http: { url: .well-known/openid-configuration }
        expect: { status: 200 }
    """,
    """
    scenario: Alice logs in
    client: native
    steps:
      - id: discovery
        http: { url: .well-known/openid-configuration }
        expect: { status: 200 }
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
        expect:
          access_token: { exists: true }
      - id: userinfo
        userinfo: { access_token: "${{ steps.login.access_token }}" }
    """,
    """
    scenario: An extra feature
    requires: [extra_feature]
    steps:
      - id: discovery
        http: { url: .well-known/openid-configuration }
    """,
  ]

  static func run(spool: ScenarioSpool? = nil) async throws -> [RunReport] {
    let (parsed, diagnostics) = ProjectConfigParser().parse(project, file: "authflow.yaml")
    #expect(!diagnostics.hasErrors, "\(diagnostics)")
    let config = try #require(parsed)
    let secrets = SecretRegistry()
    let resolver = TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    var tenants: [ResolvedTenant] = []
    for profile in config.tenants { tenants.append(try await resolver.resolve(profile)) }
    let instances = try scenarios.enumerated().flatMap { index, yaml in
      try ScenarioHarness.parse(yaml, file: "scenario\(index).yaml").instances
    }
    let transport = LiveTransport()
    let runs = TenantRuns(
      tenants: tenants.map(\.context), services: RunServices(secrets: secrets, transport: transport),
      functions: Pipeline.functions, jobs: 3, spool: spool)
    let reports = await runs.run(instances)
    for tenant in tenants { await tenant.stop() }
    try? await transport.shutdown()
    return reports
  }

  @Test("Verdicts per tenant, the differing scenarios with their first differing step")
  func comparesVerdicts() async throws {
    let reports = try await Self.run()
    #expect(reports.map(\.tenant) == ["mock", "mock-b"])
    let comparison = TenantComparison(runs: reports)
    let texts = comparison.rows.map { $0.verdicts.map(TenantComparison.verdict) }
    #expect(texts[1] == ["pass", "fail"])
    #expect(texts[2][1].hasPrefix("skip (tenant 'mock-b' lacks capability"), "\(texts)")
    let verdicts = comparison.rows.map { $0.verdicts.map(\.status) }
    #expect(verdicts == [[.passed, .passed], [.passed, .failed], [.passed, .skipped]])
    #expect(comparison.rows[0].difference == nil)
    let login = try #require(comparison.rows[1].difference)
    #expect(login.hasPrefix("step 'login' passed on mock, failed on mock-b ("), "\(login)")
    #expect(login.contains("invalid_grant"), "\(login)")
    let skipped = try #require(comparison.rows[2].difference)
    #expect(skipped.hasPrefix("skipped on mock-b: "), "\(skipped)")
    #expect(skipped.contains("extra_feature"))
    let table = comparison.render()
    #expect(table.contains("2 scenarios differ:"), "\(table)")
    #expect(table.contains("Alice logs in"))
    #expect(!table.contains("not-alices-password"), "\(table)")
  }

  @Test("The summary lines agree with their count")
  func summaryGrammar() {
    #expect(ComparisonMessages.allAgree(1) == "The scenario has the same verdict on every tenant.")
    #expect(ComparisonMessages.allAgree(3) == "All 3 scenarios have the same verdict on every tenant.")
    #expect(ComparisonMessages.differ(1) == "1 scenario differs:")
    #expect(ComparisonMessages.differ(2) == "2 scenarios differ:")
  }

  @Test("The combined report labels each scenario with its tenant; its exit code is the worst run's")
  func combinedReport() async throws {
    let reports = try await Self.run()
    #expect(reports[0].exitCode == .success)
    #expect(reports[1].exitCode == .failure)
    let combined = RunReport.combining(reports)
    #expect(combined.tenant == "mock,mock-b")
    #expect(combined.scenarios.count == 6)
    #expect(combined.scenarios.map(\.tenant) == ["mock", "mock", "mock", "mock-b", "mock-b", "mock-b"])
    #expect(combined.scenarios[4].name == "Alice logs in [tenant: mock-b]")
    #expect(combined.exitCode == .failure)
    #expect(RunReport.combining([reports[0]]).scenarios.first?.tenant == nil)
  }

  @Test("Spooled, the runs compare and combine as in memory, each tenant at its own positions")
  func spooledRuns() async throws {
    let spool = try ScenarioSpool(directory: NSTemporaryDirectory(), capacity: 6) {
      $0.spooled(secrets: SecretRegistry(), keepingResults: false)
    }
    let spooled = try await Self.run(spool: spool)
    let inMemory = try await Self.run()
    #expect(spooled.allSatisfy { $0.scenarios.isProduced })
    #expect(spool.storedCount(in: 0..<6) == 6)
    #expect(spool.keptInMemoryCount == 0)
    #expect(TenantComparison(runs: spooled).render() == TenantComparison(runs: inMemory).render())
    let combined = RunReport.combining(spooled)
    #expect(combined.scenarios.isProduced)
    #expect(combined.scenarios.map(\.name) == RunReport.combining(inMemory).scenarios.map(\.name))
    #expect(combined.scenarios.map(\.status) == [.passed, .passed, .passed, .passed, .failed, .skipped])
    #expect(combined.count(.failed) == 1 && combined.count(.skipped) == 1)
    #expect(combined.exitCode == .failure)
  }
}
