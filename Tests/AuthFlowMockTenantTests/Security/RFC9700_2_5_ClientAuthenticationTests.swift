import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §2.5 (client authentication) and ASVS V2.10 (service authentication): a token request
/// authenticates one client, never one in its Basic header and another in its body — and, by
/// RFC 6749 §2.3 and §3.1, with one method, and with each parameter once.
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

  static let credentials: [(String, String)] = [
    ("grant_type", "client_credentials"), ("client_id", "m2m-client-id"), ("audience", "https://api.example.com"),
  ]

  /// A form body that repeats a parameter was read as "the first one wins": a secret that was
  /// right first and wrong second authenticated, and a second `grant_type` was ignored. Both are
  /// `invalid_request` (RFC 6749 §3.1: parameters MUST NOT be included more than once); a
  /// parameter without a value counts as omitted, so `client_secret=&client_secret=…` is one.
  @Test func aRepeatedParameterIsInvalidRequest() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let right = ("client_secret", "m2m-client-secret")
      let once = try await client.postForm("/oauth/token", Self.credentials + [right])
      #expect(once.status == .ok, "\(once.text)")
      for (fields, name) in [
        (Self.credentials + [right, ("client_secret", "wrong")], "client_secret"),
        (Self.credentials + [("client_secret", "wrong"), right], "client_secret"),
        (Self.credentials + [right, right], "client_secret"),
        (Self.credentials + [right, ("grant_type", "password")], "grant_type"),
      ] {
        let repeated = try await client.postForm("/oauth/token", fields)
        #expect(repeated.status == .badRequest, "\(fields)")
        #expect(repeated.json["error"] == "invalid_request")
        #expect(repeated.json["error_description"] == .string("Parameter \(name) is included more than once."))
        #expect(repeated.json["access_token"] == nil)
      }
      let emptyFirst = try await client.postForm("/oauth/token", Self.credentials + [("client_secret", ""), right])
      #expect(emptyFirst.status == .ok, "\(emptyFirst.text)")
      let revoke = try await client.postForm(
        "/oauth/revoke", [("client_id", "m2m-client-id"), right, right, ("token", "x")])
      #expect(revoke.status == .badRequest)
    }
  }

  /// A Basic header and a secret in the body are two authentication methods (RFC 6749 §2.3: the
  /// client MUST NOT use more than one): `invalid_request`, even when both secrets are right. The
  /// header alone, with `client_id` in the body, is one.
  @Test func basicAndABodySecretAreTwoMethods() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let basic = "Basic " + Data("m2m-client-id:m2m-client-secret".utf8).base64EncodedString()
      let body: [String: Value] = [
        "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
        "audience": .string("https://api.example.com"),
      ]
      #expect(try await client.postJSON("/oauth/token", body, headers: [.authorization: basic]).status == .ok)
      for (name, credential) in [
        ("client_secret", "m2m-client-secret"), ("client_secret", "wrong"), ("client_assertion", "eyJ.a.b"),
      ] {
        var twice = body
        twice[name] = .string(credential)
        let both = try await client.postJSON("/oauth/token", twice, headers: [.authorization: basic])
        #expect(both.status == .badRequest, "\(name)=\(credential)")
        #expect(both.json["error"] == "invalid_request")
        #expect(both.json["access_token"] == nil)
      }
    }
  }
}
