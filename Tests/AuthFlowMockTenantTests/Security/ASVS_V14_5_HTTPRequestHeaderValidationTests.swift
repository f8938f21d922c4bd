import AuthFlowCore
import AuthFlowTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on the test-control routes (`/__mock/*`), which need no credentials: a request
/// addressed to a non-loopback `Host` (DNS rebinding) or from a non-loopback `Origin` is refused,
/// unless the mock was started with `--allow-remote-control`.
@Suite("ASVS V14.5 / V4.3 – control routes refuse non-loopback Host and Origin (DNS rebinding)")
struct ASVS_V14_5_HTTPRequestHeaderValidationTests {
  /// Runs `body` with the port of a live mock on 127.0.0.1.
  static func withMock(
    allowRemoteControl: Bool = false, _ body: (Int, MockTenant) async throws -> Void
  )
    async throws
  {
    var configuration = MockTenantConfiguration()
    configuration.allowRemoteControl = allowRemoteControl
    let handle = try await MockTenantServer.start(
      fixture: MockHarness.fixture, configuration: configuration, signingKey: MockHarness.key)
    defer { Task { await handle.stop() } }
    let port = try #require(URLComponents(string: handle.baseURL)?.port)
    try await body(port, handle.tenant)
  }

  /// The raw exchange of `POST path` with `Host: host` and an optional `Origin`.
  static func post(_ path: String, port: Int, host: String, origin: String? = nil) async throws -> String {
    var head = "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
    if let origin { head += "Origin: \(origin)\r\n" }
    head += "Connection: close\r\n\r\n{}"
    return try await RawClient.exchange(port: port, chunks: [Array(head.utf8)], limit: .seconds(10)).received
  }

  @Test func aForeignHostCannotResetTheTenant() async throws {
    try await Self.withMock { port, tenant in
      tenant.clock.advance(by: 3600)
      let refused = try await Self.post("/__mock/reset", port: port, host: "evil.example")
      #expect(refused.hasPrefix("HTTP/1.1 403"), "\(refused.prefix(200))")
      #expect(refused.contains("access_denied"))
      #expect(tenant.clock.offsetSeconds >= 3600, "the reset must not have run")
      let local = try await Self.post("/__mock/reset", port: port, host: "127.0.0.1:\(port)")
      #expect(!local.hasPrefix("HTTP/1.1 403"), "\(local.prefix(200))")
    }
  }

  /// DNS rebinding: the attacker's name resolves to 127.0.0.1, so the connection is local but
  /// `Host` and `Origin` carry the attacker's name (and port).
  @Test(
    arguments: [
      ("rebind.evil.example:\(0)", "http://rebind.evil.example"), ("evil.example", nil),
      ("127.0.0.1.nip.io", "http://127.0.0.1.nip.io"), ("localhost.evil.example", nil),
      ("127.0.0.1", "https://evil.example"), ("localhost", "null"),
    ] as [(String, String?)])
  func aDNSRebindingShapedRequestIsRefused(host: String, origin: String?) async throws {
    try await Self.withMock { port, _ in
      let hostHeader = host.replacingOccurrences(of: ":0", with: ":\(port)")
      let answer = try await Self.post("/__mock/clock/advance", port: port, host: hostHeader, origin: origin)
      #expect(answer.hasPrefix("HTTP/1.1 403"), "\(hostHeader) \(origin ?? "-"): \(answer.prefix(200))")
    }
  }

  @Test func theWrongPortOnALoopbackNameIsRefused() async throws {
    try await Self.withMock { port, _ in
      let answer = try await Self.post("/__mock/reset", port: port, host: "127.0.0.1:\(port == 1 ? 2 : port - 1)")
      #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer.prefix(200))")
    }
  }

  @Test func loopbackHostsAndOriginsAreServed() async throws {
    try await Self.withMock { port, _ in
      for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] {
        for origin in [nil, "http://localhost:3000", "http://127.0.0.1:\(port)", "http://[::1]:8080"] {
          let answer = try await Self.post("/__mock/reset", port: port, host: host, origin: origin)
          #expect(!answer.hasPrefix("HTTP/1.1 403"), "\(host) \(origin ?? "-"): \(answer.prefix(200))")
        }
      }
    }
  }

  @Test func theTenantEndpointsAreNotGuarded() async throws {
    try await Self.withMock { port, _ in
      let head = "GET /.well-known/openid-configuration HTTP/1.1\r\nHost: auth.example\r\nConnection: close\r\n\r\n"
      let answer = try await RawClient.exchange(port: port, chunks: [Array(head.utf8)], limit: .seconds(10)).received
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
    }
  }

  @Test func allowRemoteControlLiftsTheGuard() async throws {
    try await Self.withMock(allowRemoteControl: true) { port, _ in
      let answer = try await Self.post("/__mock/reset", port: port, host: "evil.example", origin: "http://evil.example")
      #expect(!answer.hasPrefix("HTTP/1.1 403"), "\(answer.prefix(200))")
    }
  }

  @Test func loopbackBindsAreRecognised() {
    for host in ["127.0.0.1", "localhost", "::1", "127.0.0.2"] {
      #expect(MockTenantConfiguration.isLoopback(host: host))
    }
    for host in ["0.0.0.0", "192.168.1.10", "::", "example.com", "127.example.com", "127.0.0.1.nip.io"] {
      #expect(!MockTenantConfiguration.isLoopback(host: host))
    }
  }
}
