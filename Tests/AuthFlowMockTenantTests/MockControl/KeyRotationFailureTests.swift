import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `/__mock/rotate-keys` when no key can be made: a 409, never a 5xx, and the current key stays.
@Suite struct KeyRotationFailureTests {
  struct GenerationFailed: Error {}

  @Test func aKeyGenerationFailureIsAConflictAndKeepsTheCurrentKey() async throws {
    let tenant = try MockHarness.tenant()
    let router = Router(context: BasicRequestContext.self)
    // The control family's operations alone, their handler for rotate-keys failing to make a key.
    try MockOperations.bind(
      [MockControlRoutes(tenant: tenant, makeKey: { throw GenerationFailed() }).handlers], to: router, partial: true)
    let before = tenant.signingKey.kid
    try await Application(router: router).test(.router) { client in
      let response = try await client.postJSON("/__mock/rotate-keys", [:])
      #expect(response.status == .conflict)
      #expect(response.json["error"] == .string("key_generation_failed"))
      #expect(response.status.code < 500)
    }
    #expect(tenant.signingKey.kid == before)
    #expect(tenant.read { $0.signingKeys.publishedKeyIDs } == [before])
  }
}
