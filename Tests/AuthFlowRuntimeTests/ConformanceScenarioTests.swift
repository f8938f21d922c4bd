import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// The standard-OIDC scenarios of `scenarios/conformance/` pass against the embedded mock, as they
/// must against django-oauth-toolkit (`conformance/run`): the verdicts on the mock are the
/// reference other providers are compared with.
@Suite("Conformance scenarios")
struct ConformanceScenarioTests {
  static let directory = BundledScenarioTests.root.appendingPathComponent("scenarios/conformance")

  static var files: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory.appendingPathComponent($0) }
  }

  @Test("Every conformance scenario is tagged oidc-standard and passes on the embedded mock")
  func passOnTheMock() async throws {
    let files = Self.files
    #expect(files.count >= 7)
    let yamls = try files.map { try String(contentsOf: $0, encoding: .utf8) }
    let report = try await MockHarness.run(yamls)
    #expect(report.scenarios.count == files.count)
    for scenario in report.scenarios {
      #expect(scenario.status == .passed, "\(scenario.name): \(scenario.problemSummary)")
      #expect(scenario.tags.contains("oidc-standard"), "\(scenario.name)")
    }
  }

  @Test("Auth0 and mock tenants record Auth0's code for a failed client authentication; a profile overrides it")
  func auth0ErrorCodeDefault() {
    let mock = ProviderDefaults.settings(for: .mock)
    #expect(mock["error_codes"]?.member("invalid_client")?.stringValue == "access_denied")
    #expect(ProviderDefaults.settings(for: .oidc).isEmpty)
    let merged = ProviderDefaults.merge(
      ["error_codes": .object(["invalid_grant": .string("bad_grant")]), "other": .bool(true)], over: mock)
    #expect(merged["error_codes"]?.member("invalid_client")?.stringValue == "access_denied")
    #expect(merged["error_codes"]?.member("invalid_grant")?.stringValue == "bad_grant")
    #expect(merged["other"] == .bool(true))
    let replaced = ProviderDefaults.merge(
      ["error_codes": .object(["invalid_client": .string("invalid_client")])], over: mock)
    #expect(replaced["error_codes"]?.member("invalid_client")?.stringValue == "invalid_client")
  }

  @Test("The wrong-client-secret scenario fails on the mock when the profile claims the standard code")
  func wrongSecretScenarioCanFail() async throws {
    let yaml = try String(
      contentsOf: Self.directory.appendingPathComponent("wrong-client-secret.yaml"), encoding: .utf8)
    let standard = yaml.replacingOccurrences(
      of: "default(tenant.settings.error_codes.invalid_client, 'invalid_client')", with: "'invalid_client'")
    #expect(standard != yaml)
    let report = try await MockHarness.run(standard)
    #expect(report.status == .failed)
    #expect(report.problemSummary.contains("access_denied"), "\(report.problemSummary)")
  }

  @Test("A profile's settings.endpoints names an endpoint discovery leaves out; relative values follow the base URL")
  func endpointOverrides() throws {
    var discovered = TenantEndpoints.auth0(baseURL: "http://127.0.0.1:8100/o/")
    discovered.revocation = nil
    discovered.layout = .discovered
    #expect(discovered.overriding(with: [:]) == discovered)
    let settings: [String: Value] = [
      "endpoints": .object([
        "revocation": .string("revoke_token/"), "userinfo": .string("https://op.example.com/me"),
        "unknown": .string("x"), "token": .int(3),
      ])
    ]
    let overridden = discovered.overriding(with: settings)
    #expect(overridden.revocation == "http://127.0.0.1:8100/o/revoke_token/")
    #expect(overridden.userinfo == "https://op.example.com/me")
    #expect(overridden.token == discovered.token)
    #expect(try overridden.url(forPath: "oauth/revoke").get() == "http://127.0.0.1:8100/o/revoke_token/")
    #expect((try? discovered.url(forPath: "oauth/revoke").get()) == nil)
  }
}
