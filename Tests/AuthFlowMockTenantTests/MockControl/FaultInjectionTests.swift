import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct FaultInjectionTests {
  @Test func statusAndMalformedFaultsHitTheirCountThenClear() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let added = try await client.postJSON(
        "/__mock/faults",
        ["endpoint": .string("/oauth/"), "kind": .string("status"), "status": .int(503), "count": .int(2)])
      #expect(added.status == .created)
      let body = AttackProtectionTests.passwordRealm("alice@example.com", "Alice-Passw0rd!")
      #expect(try await client.postJSON("/oauth/token", body).status == .serviceUnavailable)
      #expect(try await client.postJSON("/oauth/token", body).status == .serviceUnavailable)
      #expect(try await client.postJSON("/oauth/token", body).status == .ok)
      _ = try await client.postJSON("/__mock/faults", ["endpoint": .string("/userinfo"), "kind": .string("malformed")])
      let listed = try await client.execute(uri: "/__mock/faults", method: .get).json
      #expect(listed["faults"]?.arrayValue?.count == 1)
      let malformed = try await client.execute(uri: "/userinfo", method: .get)
      #expect(malformed.status == .ok)
      #expect((try? Value(json: Data(malformed.text.utf8))) == nil)
      #expect(try await client.execute(uri: "/__mock/faults", method: .delete).status == .noContent)
      #expect(try await client.execute(uri: "/userinfo", method: .get).status == .unauthorized)
      let invalid = try await client.postJSON("/__mock/faults", ["endpoint": .string("oauth"), "kind": .string("x")])
      #expect(invalid.status == .badRequest)
    }
  }

  @Test func delayFaultDelaysAndResetClearsFaults() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      _ = try await client.postJSON(
        "/__mock/faults", ["endpoint": .string("/.well-known/"), "kind": .string("delay"), "delay_ms": .int(300)])
      let start = ContinuousClock.now
      #expect(try await client.execute(uri: "/.well-known/jwks.json", method: .get).status == .ok)
      #expect(ContinuousClock.now - start >= .milliseconds(300))
      _ = try await client.execute(uri: "/__mock/reset", method: .post)
      let listed = try await client.execute(uri: "/__mock/faults", method: .get).json
      #expect(listed["faults"]?.arrayValue?.isEmpty == true)
    }
  }
}
