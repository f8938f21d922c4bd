import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §2.5 (client authentication) and ASVS V2.10 (service authentication): a token request
/// authenticates one client, never one in its Basic header and another in its body.
@Suite("RFC 9700 §2.5 / ASVS V2.10 – client authentication has one identity")
struct RFC9700_2_5_ClientAuthenticationTests {
  @Test func basicAuthenticationForOneClientAndABodyForAnotherIsRefused() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let basic = "Basic " + Data("web-client-id:web-client-secret".utf8).base64EncodedString()
      let body: [String: Value] = [
        "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
        "audience": .string("https://api.example.com"),
      ]
      let mixed = try await client.postJSON("/oauth/token", body, headers: [.authorization: basic])
      #expect(mixed.status == .unauthorized)
      #expect(mixed.json["access_token"] == nil)
      let wrongBasic = "Basic " + Data("m2m-client-id:nope".utf8).base64EncodedString()
      let wrong = try await client.postJSON("/oauth/token", body, headers: [.authorization: wrongBasic])
      #expect(wrong.status == .unauthorized)
      let right = "Basic " + Data("m2m-client-id:m2m-client-secret".utf8).base64EncodedString()
      #expect(try await client.postJSON("/oauth/token", body, headers: [.authorization: right]).status == .ok)
    }
  }
}
