import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// `authflow doctor --probe` against the embedded mock over real HTTP: what it shows, what it finds
/// absent when the mock's fixture turns a behaviour off, and a declaration the probe contradicts.
@Suite("Capability probe")
struct CapabilityProbeTests {
  static func diagnose(_ profile: TenantProfile) async throws -> DoctorReport {
    let secrets = SecretRegistry()
    let transport = LiveTransport()
    let resolver = TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    let probe = CapabilityProbe(services: RunServices(secrets: secrets, transport: transport))
    let report = try await TenantDoctor(transport: transport, probe: probe).diagnose(profile, resolver: resolver)
    try? await transport.shutdown()
    return report
  }

  /// A mock tenant with the built-in fixture, `refresh_token_rotation` changed to `rotation`.
  static func mockProfile(rotation: Bool, declare: [String] = []) throws -> (TenantProfile, URL) {
    let builtIn = BundledScenarioTests.root.appendingPathComponent("Sources/AuthFlowMockTenant/Resources/mock.yaml")
    let fixture = try String(contentsOf: builtIn, encoding: .utf8).replacingOccurrences(
      of: "refresh_token_rotation: true", with: "refresh_token_rotation: \(rotation)")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("mock.yaml")
    try fixture.write(to: path, atomically: true, encoding: .utf8)
    let yaml = """
      tenants:
        m:
          kind: mock
          fixture: \(path.path)
          capabilities: [\(declare.joined(separator: ", "))]
      """
    let (config, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return (try #require(config?.tenant(named: "m")), directory)
  }

  @Test("the mock keeps a session, rotates refresh tokens and checks the S256 verifier; PKCE is not required")
  func embeddedMock() async throws {
    let report = try await Self.diagnose(try #require(ProjectConfig.embedded.tenants.first))
    let text = report.render()
    #expect(report.exitCode == .success, "\(text)")
    #expect(
      text.contains(
        "✓ sso_session — probe: a second authorization request in the same browser returned to the callback without the login page (pages: callback)"
      ), "\(text)")
    #expect(
      text.contains(
        "✓ refresh_token_rotation — probe: the refresh grant returned a new refresh token, and the old one was then refused (invalid_grant)"
      ), "\(text)")
    #expect(
      text.contains(
        "✓ pkce — probe: a code requested with an S256 code_challenge was refused with a wrong code_verifier"))
    // The mock answers the exchange of a PKCE-less code of a public client with access_denied (its
    // authentication failed), which does not say PKCE: undetermined, not a guess.
    #expect(text.contains("· pkce_required undetermined — probe: the exchange of a code of client 'native'"), "\(text)")
  }

  @Test("a fixture without rotation: the mock no longer claims it, and the probe finds it absent")
  func rotationOff() async throws {
    let (profile, directory) = try Self.mockProfile(rotation: false)
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = try await Self.diagnose(profile)
    let text = report.render()
    #expect(report.exitCode == .success, "\(text)")
    #expect(!text.contains("✓ refresh_token_rotation"), "\(text)")
    #expect(text.contains("· no refresh_token_rotation — probe: "), "\(text)")
  }

  @Test("a declared capability the probe finds absent fails the doctor with the fix")
  func contradictedDeclaration() async throws {
    let (profile, directory) = try Self.mockProfile(rotation: false, declare: ["refresh_token_rotation"])
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = try await Self.diagnose(profile)
    #expect(report.exitCode == .failure)
    let failure = try #require(report.failures.first { $0.message.hasPrefix("refresh_token_rotation is declared") })
    #expect(failure.message.contains("probe: "))
    #expect(failure.fix?.contains("remove 'refresh_token_rotation'") == true)
  }

  @Test("without a usable user or client nothing is probed, and it says why")
  func nothingToProbeWith() {
    let tenant = TenantContext(
      name: "op", kind: .oidc, baseURL: "http://127.0.0.1:9/", issuer: "http://127.0.0.1:9/", clients: [:],
      users: [:])
    #expect(CapabilityProbe.client(in: tenant) == nil)
    let checks = CapabilityProbe.checks(
      Dictionary(uniqueKeysWithValues: CapabilityProbe.capabilities.map { ($0, .inconclusive("probe: no client")) }),
      tenant: tenant)
    #expect(checks.allSatisfy { $0.outcome == .info })
  }
}
