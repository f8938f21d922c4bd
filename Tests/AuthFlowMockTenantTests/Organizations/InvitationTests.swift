import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Organization invitations: the Management API, the email, and acceptance at `/authorize`.
@Suite struct InvitationTests {
  static let path = "/api/v2/organizations/org_acme123/invitations"
  static let allScopes =
    "create:organization_invitations read:organization_invitations delete:organization_invitations"

  /// A client-credentials Management API token for the m2m client.
  static func m2mToken(_ client: any TestClientProtocol, scope: String = allScopes) async throws -> String {
    let response = try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
        "client_secret": .string("m2m-client-secret"), "audience": .string(ManagementUserTests.audience),
        "scope": .string(scope),
      ])
    #expect(response.status == .ok, "\(response.text)")
    return try #require(response.json["access_token"]?.stringValue)
  }

  static func invite(
    _ client: any TestClientProtocol, email: String, token: String, extra: [String: Value] = [:],
    path: String = path
  ) async throws -> TestResponse {
    var body: [String: Value] = [
      "inviter": .object(["name": .string("Alice")]), "invitee": .object(["email": .string(email)]),
      "client_id": .string("native-client-id"),
    ]
    body.merge(extra) { _, new in new }
    return try await ManagementUserTests.call(client, .post, path, bearer: token, body: .object(body))
  }

  /// `/authorize` for the invitation link's parameters.
  static func authorize(_ invitation: [String: Value], organization: String = "org_acme123") -> AuthorizeParameters {
    var parameters = AuthorizeParameters()
    parameters.extra = [
      ("invitation", invitation["ticket_id"]?.stringValue ?? ""), ("organization", organization),
    ]
    return parameters
  }

  @Test func createEmailsTheLinkAndListGetDeleteWork() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.m2mToken(client)
      let created = try await Self.invite(
        client, email: "new@example.com", token: token,
        extra: ["ttl_sec": .int(3600), "roles": .array([.string("rol_1")])])
      #expect(created.status == .created, "\(created.text)")
      let invitation = created.json
      let id = try #require(invitation["id"]?.stringValue)
      let ticket = try #require(invitation["ticket_id"]?.stringValue)
      #expect(id.hasPrefix("uinv_"))
      #expect(invitation["organization_id"] == .string("org_acme123"))
      #expect(invitation["invitee"]?.member("email") == .string("new@example.com"))
      #expect(invitation["inviter"]?.member("name") == .string("Alice"))
      #expect(invitation["roles"] == .array([.string("rol_1")]))
      let url = try #require(invitation["invitation_url"]?.stringValue)
      #expect(
        url == "https://app.example.com/login?invitation=\(ticket)&organization=org_acme123&organization_name=acme")
      let created0 = try #require(invitation["created_at"]?.stringValue)
      let expires = try #require(invitation["expires_at"]?.stringValue)
      #expect(created0 == UserClaims.isoMilliseconds(tenant.clock.seconds))
      #expect(expires == UserClaims.isoMilliseconds(tenant.clock.seconds + 3600))

      let mail = tenant.read({ $0.outbox.list(to: "new@example.com") })
      #expect(mail.count == 1)
      #expect(mail.first?.link == url)
      #expect(mail.first?.subject == "You've been invited to join Acme Corp")
      #expect(mail.first?.body.contains(url) == true)

      let listed = try await ManagementUserTests.call(client, .get, Self.path, bearer: token)
      #expect(listed.status == .ok)
      #expect(try Value(json: Data(listed.text.utf8)).arrayValue?.compactMap { $0.member("id") } == [.string(id)])
      let got = try await ManagementUserTests.call(client, .get, "\(Self.path)/\(id)", bearer: token)
      #expect(got.json["ticket_id"] == .string(ticket))
      let deleted = try await ManagementUserTests.call(client, .delete, "\(Self.path)/\(id)", bearer: token)
      #expect(deleted.status == .noContent)
      ManagementUserTests.expectError(
        try await ManagementUserTests.call(client, .delete, "\(Self.path)/\(id)", bearer: token), 404,
        "inexistent_invitation")
      ManagementUserTests.expectError(
        try await ManagementUserTests.call(client, .get, "\(Self.path)/\(id)", bearer: token), 404,
        "inexistent_invitation")
      // A deleted invitation cannot be accepted.
      let refused = try await client.execute(uri: Self.authorize(invitation).uri, method: .get)
      #expect(
        items(of: try #require(refused.location))["error_description"] == AuthorizeError.invalidInvitation.description)

      let quiet = try await Self.invite(
        client, email: "quiet@example.com", token: token, extra: ["send_invitation_email": .bool(false)])
      #expect(quiet.status == .created)
      #expect(tenant.read({ $0.outbox.list(to: "quiet@example.com") }).isEmpty)
    }
  }

  @Test func managementAuthAndScopesAreEnforced() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      ManagementUserTests.expectError(
        try await Self.invite(client, email: "x@example.com", token: "not-a-jwt"), 401, "invalid_token")
      ManagementUserTests.expectError(
        try await ManagementUserTests.call(client, .get, Self.path, bearer: nil), 401, "missing_authentication")
      let readOnly = try await Self.m2mToken(client, scope: "read:organization_invitations")
      ManagementUserTests.expectError(
        try await Self.invite(client, email: "x@example.com", token: readOnly), 403, "insufficient_scope")
      #expect(try await ManagementUserTests.call(client, .get, Self.path, bearer: readOnly).status == .ok)
      ManagementUserTests.expectError(
        try await ManagementUserTests.call(client, .delete, "\(Self.path)/uinv_x", bearer: readOnly), 403,
        "insufficient_scope")
      let createOnly = try await Self.m2mToken(client, scope: "create:organization_invitations")
      ManagementUserTests.expectError(
        try await ManagementUserTests.call(client, .get, Self.path, bearer: createOnly), 403, "insufficient_scope")
      // A token for another audience (the userinfo access token of a password login) is refused.
      let userToken = try #require(
        try await ManagementUserTests.token(client, scope: "openid", audience: "https://api.example.com")[
          "access_token"]?.stringValue)
      ManagementUserTests.expectError(
        try await Self.invite(client, email: "x@example.com", token: userToken), 401, "invalid_token")
    }
  }

  @Test func invalidBodiesAndUnknownOrganizationsAreRefused() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await Self.m2mToken(client)
      ManagementUserTests.expectError(
        try await Self.invite(
          client, email: "x@example.com", token: token, path: "/api/v2/organizations/org_nope/invitations"),
        404, "inexistent_organization")
      let cases: [[String: Value]] = [
        ["invitee": .object([:])], ["inviter": .string("Alice")], ["client_id": .string("nope")],
        ["client_id": .string("web-client-id")], ["ttl_sec": .int(2_592_001)], ["ttl_sec": .string("1h")],
        ["roles": .string("admin")], ["app_metadata": .array([])], ["connection_id": .string("nowhere")],
        ["surprise": .bool(true)],
      ]
      for extra in cases {
        ManagementUserTests.expectError(
          try await Self.invite(client, email: "x@example.com", token: token, extra: extra), 400, "invalid_body")
      }
      let missing = try await ManagementUserTests.call(
        client, .post, Self.path, bearer: token, body: .object(["client_id": .string("native-client-id")]))
      ManagementUserTests.expectError(missing, 400, "invalid_body")
      let malformed = try await client.execute(
        uri: Self.path, method: .post, headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
        body: .init(string: "{nope"))
      ManagementUserTests.expectError(malformed, 400, "invalid_body")
    }
  }

  /// Signs up on the invitation page with `email`; the response to the form.
  static func signUp(
    _ browser: inout Browser, _ parameters: AuthorizeParameters, email: String, password: String = "Gr33n-Meadow-71"
  ) async throws -> TestResponse {
    let authorize = try await browser.get(parameters.uri)
    let pageURL = try #require(authorize.location, "\(authorize.text)")
    #expect(pageURL.hasPrefix("/u/signup?state="), "\(pageURL)")
    let page = try await browser.get(pageURL)
    return try await browser.postForm(
      pageURL,
      [
        ("state", try #require(hiddenField("state", in: page.text))),
        ("_csrf", try #require(hiddenField("_csrf", in: page.text))), ("email", email), ("password", password),
      ])
  }

  @Test func acceptanceBySignupMakesAMemberOnceAndOnlyWithTheInvitedEmail() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.m2mToken(client)
      let invitation = try await Self.invite(client, email: "Invitee@Example.com", token: token).json
      let parameters = Self.authorize(invitation)

      var browser = Browser(client)
      let authorize = try await browser.get(parameters.uri)
      let page = try await browser.get(try #require(authorize.location))
      #expect(page.text.contains("data-page=\"signup\""))
      #expect(page.text.contains("Alice has invited you to join Acme Corp."))
      #expect(page.text.contains("value=\"Invitee@Example.com\""))

      // The invited email only.
      var impostor = Browser(client)
      let wrong = try await Self.signUp(&impostor, parameters, email: "impostor@example.com")
      #expect(wrong.status == .badRequest)
      #expect(wrong.text.contains(HTML.escape(LoginMessages.invitationEmailMismatch)))
      #expect(
        tenant.read { $0.users.find("impostor@example.com", connection: InvitationAcceptance.defaultConnection) }
          == nil)

      let accepted = try await Self.signUp(&browser, parameters, email: "invitee@example.com")
      let callback = items(of: try #require(accepted.location))
      let exchanged = try await client.exchange(code: try #require(callback["code"]), verifier: parameters.verifier)
      let claims = try OrganizationTests.idClaims(exchanged)
      #expect(claims["org_id"] == .string("org_acme123"))
      #expect(claims["email_verified"] == .bool(true))
      let user = try #require(
        tenant.read { $0.users.find("invitee@example.com", connection: InvitationAcceptance.defaultConnection) })
      #expect(tenant.read({ $0.organizations.isMember(user.userID, of: "org_acme123") }))

      // Single use: the same link again is refused, even for the invitee.
      var again = Browser(client)
      let reused = try await again.get(parameters.uri)
      let error = items(of: try #require(reused.location))
      #expect(error["error"] == "invalid_request")
      #expect(error["error_description"] == "The invitation is invalid or has already been used.")
      #expect(error["state"] == "state-123")
      let listed = try await ManagementUserTests.call(client, .get, Self.path, bearer: token)
      #expect(try Value(json: Data(listed.text.utf8)).arrayValue?.isEmpty == true)
    }
  }

  @Test func expiredInvitationsAreRefusedOnTheVirtualClock() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.m2mToken(client)
      let invitation = try await Self.invite(
        client, email: "late@example.com", token: token, extra: ["ttl_sec": .int(3600)]
      )
      .json
      tenant.clock.advance(by: 3599)
      var early = Browser(client)
      let page = try await early.get(Self.authorize(invitation).uri)
      #expect(page.location?.hasPrefix("/u/signup") == true)
      // Expires between the page and the submission: refused at completion.
      tenant.clock.advance(by: 2)
      let late = try await Self.signUpOnOpenPage(&early, page: try #require(page.location), email: "late@example.com")
      #expect(items(of: try #require(late.location))["error_description"] == "The invitation has expired.")
      let user = try #require(
        tenant.read { $0.users.find("late@example.com", connection: InvitationAcceptance.defaultConnection) })
      #expect(!tenant.read({ $0.organizations.isMember(user.userID, of: "org_acme123") }))

      let refused = try await client.execute(uri: Self.authorize(invitation).uri, method: .get)
      let error = items(of: try #require(refused.location))
      #expect(error["error"] == "invalid_request")
      #expect(error["error_description"] == "The invitation has expired.")
    }
  }

  static func signUpOnOpenPage(_ browser: inout Browser, page url: String, email: String) async throws -> TestResponse {
    let page = try await browser.get(url)
    return try await browser.postForm(
      url,
      [
        ("state", try #require(hiddenField("state", in: page.text))),
        ("_csrf", try #require(hiddenField("_csrf", in: page.text))), ("email", email),
        ("password", "Gr33n-Meadow-71"),
      ])
  }

  @Test func theTicketIsBoundToItsOrganizationAndClient() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await Self.m2mToken(client)
      let invitation = try await Self.invite(client, email: "bound@example.com", token: token).json
      let otherOrganization = try await client.execute(
        uri: Self.authorize(invitation, organization: "org_globex456").uri, method: .get)
      #expect(items(of: try #require(otherOrganization.location))["error"] == "invalid_request")
      var otherClient = Self.authorize(invitation)
      otherClient.clientID = "b2b-client-id"
      otherClient.redirectURI = OrganizationTests.b2bCallback
      let refused = items(of: try #require(try await client.execute(uri: otherClient.uri, method: .get).location))
      #expect(refused["error_description"] == "The invitation is invalid or has already been used.")
      var noOrganization = AuthorizeParameters()
      noOrganization.extra = [("invitation", invitation["ticket_id"]?.stringValue ?? "")]
      let missing = items(
        of: try #require(try await client.execute(uri: noOrganization.uri, method: .get).location))
      #expect(missing["error_description"] == "Missing required parameter: organization")
    }
  }

  @Test func anExistingUserAcceptsByLoggingIn() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.m2mToken(client)
      let invitation = try await Self.invite(
        client, email: "alice@example.com", token: token,
        path: "/api/v2/organizations/org_globex456/invitations"
      ).json
      var browser = Browser(client)
      let callback = try await browser.login(
        Self.authorize(invitation, organization: "org_globex456"), email: "alice@example.com",
        password: "Alice-Passw0rd!")
      let code = try #require(items(of: callback)["code"])
      let exchanged = try await client.exchange(code: code, verifier: AuthorizeParameters().verifier)
      #expect(try OrganizationTests.idClaims(exchanged)["org_id"] == .string("org_globex456"))
      #expect(tenant.read({ $0.organizations.isMember("auth0|alice0001", of: "org_globex456") }))
    }
  }
}
