import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// CIBA: `POST /bc-authorize`, the `/__mock/ciba` decision, and the CIBA grant's answers.
@Suite struct BackchannelTests {
  static let aliceHint = #"{"format":"iss_sub","iss":"http://mock.test/","sub":"auth0|alice0001"}"#

  /// `/bc-authorize` for the web client, as auth0-python sends it (a form body).
  static func start(
    _ client: any TestClientProtocol, hint: String = aliceHint, scope: String = "openid profile offline_access",
    binding: String = "Approve sign-in 4811", secret: String = "web-client-secret", clientID: String = "web-client-id",
    extra: [(String, String)] = []
  ) async throws -> TestResponse {
    try await client.postForm(
      "/bc-authorize",
      [
        ("client_id", clientID), ("client_secret", secret), ("binding_message", binding), ("login_hint", hint),
        ("scope", scope),
      ] + extra)
  }

  static func requestID(_ client: any TestClientProtocol, extra: [(String, String)] = []) async throws -> String {
    let response = try await start(client, extra: extra)
    #expect(response.status == .ok, "\(response.text)")
    return try #require(response.json["auth_req_id"]?.stringValue)
  }

  static func poll(_ client: any TestClientProtocol, _ id: String) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("urn:openid:params:grant-type:ciba"), "client_id": .string("web-client-id"),
        "client_secret": .string("web-client-secret"), "auth_req_id": .string(id),
      ])
  }

  static func decide(_ client: any TestClientProtocol, _ id: String, approve: Bool) async throws -> TestResponse {
    try await client.postJSON("/__mock/ciba/\(id)", ["approve": .bool(approve)])
  }

  static func expectError(_ response: TestResponse, _ code: String, status: Int = 400) {
    #expect(response.status.code == status, "\(response.text)")
    #expect(response.json["error"] == .string(code), "\(response.text)")
  }

  @Test func startAnswersIDExpiryAndInterval() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await Self.start(client)
      #expect(response.status == .ok)
      #expect(response.json["expires_in"] == .int(300))
      #expect(response.json["interval"] == .int(5))
      #expect((response.json["auth_req_id"]?.stringValue?.count ?? 0) >= 43)
      let short = try await Self.start(client, extra: [("requested_expiry", "30")])
      #expect(short.json["expires_in"] == .int(30))
    }
  }

  @Test func approvedRequestGivesTokensOnce() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let id = try await Self.requestID(client)
      Self.expectError(try await Self.poll(client, id), "authorization_pending")
      #expect(try await Self.decide(client, id, approve: true).status == .noContent)
      let tokens = try await Self.poll(client, id)
      #expect(tokens.status == .ok, "\(tokens.text)")
      #expect(tokens.json["refresh_token"]?.stringValue != nil)
      #expect(tokens.json["scope"] == .string("openid profile offline_access"))
      let idToken = try tenant.verificationKeys.verify(try #require(tokens.json["id_token"]?.stringValue))
      #expect(idToken.claims["sub"] == .string("auth0|alice0001"))
      #expect(idToken.claims["aud"] == .string("web-client-id"))
      #expect(idToken.claims["name"] == .string("Alice Example"))
      // Single use: the same auth_req_id is unknown afterwards, and can't be decided again.
      Self.expectError(try await Self.poll(client, id), "invalid_grant")
      #expect(try await Self.decide(client, id, approve: true).status == .notFound)
    }
  }

  @Test func pollingWithinTheIntervalSlowsDown() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let id = try await Self.requestID(client)
      Self.expectError(try await Self.poll(client, id), "authorization_pending")
      let fast = try await Self.poll(client, id)
      Self.expectError(fast, "slow_down")
      #expect(fast.headers[.retryAfter] == "10")
      #expect(
        fast.json["error_description"] == .string("You are polling faster than allowed. Try again in 10 seconds."))
      // The interval is now 10 s: 6 s later is still too fast, 11 s later is fine.
      tenant.clock.advance(by: 6)
      Self.expectError(try await Self.poll(client, id), "slow_down")
      tenant.clock.advance(by: 16)
      Self.expectError(try await Self.poll(client, id), "authorization_pending")
    }
  }

  @Test func deniedRequestAnswersAccessDeniedOnce() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let id = try await Self.requestID(client)
      #expect(try await Self.decide(client, id, approve: false).status == .noContent)
      let denied = try await Self.poll(client, id)
      Self.expectError(denied, "access_denied")
      #expect(
        denied.json["error_description"]
          == .string("The end-user denied the authorization request or it has been expired"))
      Self.expectError(try await Self.poll(client, id), "invalid_grant")
    }
  }

  @Test func requestExpiresOnTheVirtualClock() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let id = try await Self.requestID(client, extra: [("requested_expiry", "10")])
      tenant.clock.advance(by: 11)
      Self.expectError(try await Self.poll(client, id), "expired_token")
      // Still expired (not "unknown") on the next poll; and too late to approve.
      Self.expectError(try await Self.poll(client, id), "expired_token")
      #expect(try await Self.decide(client, id, approve: true).status == .notFound)
      // Approved just in time is still expired when polled too late.
      let late = try await Self.requestID(client, extra: [("requested_expiry", "10")])
      #expect(try await Self.decide(client, late, approve: true).status == .noContent)
      tenant.clock.advance(by: 11)
      Self.expectError(try await Self.poll(client, late), "expired_token")
    }
  }

  @Test func anotherClientCannotRedeemTheRequest() async throws {
    try await MockHarness.test(
      try MockHarness.tenant { fixture in
        var other = fixture.clients["web"]
        other?.profile = "web2"
        other?.clientID = "web2-client-id"
        other?.clientSecret = "web2-client-secret"
        fixture.clients["web2"] = other
      }
    ) { client in
      let id = try await Self.requestID(client)
      #expect(try await Self.decide(client, id, approve: true).status == .noContent)
      let foreign = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("urn:openid:params:grant-type:ciba"), "client_id": .string("web2-client-id"),
          "client_secret": .string("web2-client-secret"), "auth_req_id": .string(id),
        ])
      Self.expectError(foreign, "invalid_grant")
      #expect(try await Self.poll(client, id).status == .ok)
    }
  }

  /// Concurrent polls of an approved request: the tokens go to exactly one of them.
  @Test func concurrentPollsGetTheTokensOnce() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let id = try await Self.requestID(client)
      #expect(try await Self.decide(client, id, approve: true).status == .noContent)
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<8 { group.addTask { Int(try await Self.poll(client, id).status.code) } }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
    }
  }

  @Test func authorizationDetailsComeBackWithTheTokens() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let details = #"[{"type":"payment_initiation","amount":"42.00"}]"#
      let id = try await Self.requestID(client, extra: [("authorization_details", details)])
      _ = try await Self.decide(client, id, approve: true)
      let tokens = try await Self.poll(client, id)
      #expect(
        tokens.json["authorization_details"]
          == .array([.object(["type": .string("payment_initiation"), "amount": .string("42.00")])]))
      Self.expectError(
        try await Self.start(client, extra: [("authorization_details", #"[{"amount":1}]"#)]), "invalid_request")
    }
  }

  @Test func startRejectsBadRequests() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      Self.expectError(try await Self.start(client, secret: "wrong"), "access_denied", status: 401)
      Self.expectError(
        try await Self.start(client, secret: "", clientID: "native-client-id"), "unauthorized_client", status: 403)
      Self.expectError(try await Self.start(client, scope: "profile"), "invalid_scope")
      Self.expectError(try await Self.start(client, binding: "<script>"), "invalid_binding_message")
      Self.expectError(
        try await Self.start(client, binding: String(repeating: "a", count: 65)), "invalid_binding_message")
      Self.expectError(try await Self.start(client, hint: "alice@example.com"), "invalid_request")
      Self.expectError(
        try await Self.start(
          client, hint: #"{"format":"iss_sub","iss":"https://other.example/","sub":"auth0|alice0001"}"#),
        "invalid_request")
      Self.expectError(
        try await Self.start(client, hint: #"{"format":"iss_sub","iss":"http://mock.test/","sub":"auth0|nobody"}"#),
        "unknown_user_id")
      Self.expectError(
        try await Self.start(
          client, hint: #"{"format":"iss_sub","iss":"http://mock.test/","sub":"auth0|blocked0003"}"#),
        "unauthorized", status: 401)
      Self.expectError(try await Self.start(client, extra: [("requested_expiry", "301")]), "invalid_request")
      Self.expectError(try await Self.start(client, extra: [("requested_expiry", "0")]), "invalid_request")
      // SDKs build `https://{domain}/`; the mock serves http and accepts it.
      let https = try await Self.start(
        client, hint: #"{"format":"iss_sub","iss":"https://mock.test","sub":"auth0|alice0001"}"#)
      #expect(https.status == .ok)
    }
  }

  @Test func pollErrorsForMissingOrUnknownIDs() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      Self.expectError(try await Self.poll(client, "not-an-id"), "invalid_grant")
      let missing = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("urn:openid:params:grant-type:ciba"), "client_id": .string("web-client-id"),
          "client_secret": .string("web-client-secret"),
        ])
      Self.expectError(missing, "invalid_request")
      #expect(try await client.postJSON("/__mock/ciba/x", ["approve": .string("maybe")]).status == .badRequest)
    }
  }
}
