import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct TokenExchangeTests {
  static func exchange(_ token: String, type: String, profile: String? = nil) -> [String: Value] {
    var body: [String: Value] = [
      "grant_type": .string("urn:ietf:params:oauth:grant-type:token-exchange"),
      "client_id": .string("native-client-id"), "subject_token": .string(token),
      "subject_token_type": .string(type), "scope": .string("openid profile email"),
    ]
    if let profile { body["user_profile"] = .string(profile) }
    return body
  }

  static let apple = "http://auth0.com/oauth/token-type/apple-authz-code"
  static let facebook = "http://auth0.com/oauth/token-type/facebook-info-session-access-token"

  @Test func appleCodeCreatesTheUserWithTheMergedNameAndIsSingleUse() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let body = Self.exchange(
        "apple-authz-code-alice", type: Self.apple, profile: #"{"name":{"firstName":"Alice","lastName":"Apple"}}"#)
      let response = try await client.postJSON("/oauth/token", body)
      #expect(response.status == .ok, "\(response.text)")
      #expect(response.json["issued_token_type"] == .string("urn:ietf:params:oauth:token-type:access_token"))
      let idToken = try #require(response.json["id_token"]?.stringValue)
      let payload = try #require(idToken.split(separator: ".").dropFirst().first)
      let claims = try #require(
        try Value(json: Base64URL.decode(String(payload)) ?? Data()).objectValue)
      #expect(claims["sub"] == .string("apple|001234.alice"))
      #expect(claims["name"] == .string("Alice Apple"))
      let reused = try await client.postJSON("/oauth/token", body)
      #expect(reused.status == .forbidden)
      #expect(reused.json["error"] == .string("invalid_grant"))
    }
  }

  @Test func facebookTokenAndErrors() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let ok = try await client.postJSON(
        "/oauth/token", Self.exchange("facebook-session-token-dave", type: Self.facebook, profile: #"{"name":"Dave"}"#))
      #expect(ok.status == .ok)
      let unknown = try await client.postJSON("/oauth/token", Self.exchange("nope", type: Self.facebook))
      #expect(unknown.json["error"] == .string("invalid_grant"))
      for reserved in ["urn:ietf:params:oauth:token-type:jwt", "https://auth0.com/custom", "urn:okta:x", "urn:auth0:y"]
      {
        let response = try await client.postJSON("/oauth/token", Self.exchange("t", type: reserved))
        #expect(response.status == .badRequest)
        #expect(response.json["error_description"]?.stringValue?.contains("reserved namespace") == true)
      }
      let badProfile = try await client.postJSON(
        "/oauth/token", Self.exchange("facebook-session-token-dave", type: Self.facebook, profile: "{not json"))
      #expect(badProfile.json["error_description"] == .string("user_profile must be a JSON-encoded object."))
    }
  }
}
