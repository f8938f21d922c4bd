import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockTenant
import AuthFlowRuntime
import Testing

/// `mock_fault` (the `drop` fault end to end) and the invitation page, live over loopback.
@Suite struct OrganizationAndFaultActionTests {
  @Test("A dropped connection is a connection error for AsyncHTTPClient")
  func dropIsAConnectionError() async throws {
    let handle = try await MockTenantServer.start(fixture: try requireValue(FixtureLoader.loadDefault().fixture))
    let transport = LiveTransport()
    do {
      let added = try await transport.send(
        .json(url: handle.baseURL + "__mock/faults", body: .object(["endpoint": "/userinfo", "kind": "drop"])))
      #expect(added.status == 201)
      await #expect(throws: TransportError.self) {
        _ = try await transport.send(HTTPRequest(method: .get, url: handle.baseURL + "userinfo"))
      }
      // Other endpoints, and the same one once cleared, answer normally.
      #expect(try await transport.send(HTTPRequest(url: handle.baseURL + ".well-known/jwks.json")).status == 200)
      _ = try await transport.send(HTTPRequest(method: .delete, url: handle.baseURL + "__mock/faults"))
      #expect(try await transport.send(HTTPRequest(url: handle.baseURL + "userinfo")).status == 401)
    } catch {
      try? await transport.shutdown()
      await handle.stop()
      throw error
    }
    try? await transport.shutdown()
    await handle.stop()
  }

  @Test("A dropped connection fails the step as an environment failure")
  func dropIsAnEnvironmentFailure() async throws {
    let report = try await MockHarness.run(
      """
      scenario: The token endpoint drops the connection
      requires: [mock_control]
      client: native
      steps:
        - id: fault
          mock_fault: { endpoint: /oauth/token, kind: drop }
          expect: { kind: drop, endpoint: /oauth/token }
        - id: login
          login: { username: alice@example.com, password: "Alice-Passw0rd!" }
      """)
    #expect(report.status == .error, "\(report.problemSummary)")
    let login = try requireValue(report.steps.first { $0.id == "login" })
    #expect(login.status == .error)
    #expect(report.problemSummary.contains("oauth/token"), "\(report.problemSummary)")
  }

  @Test("mock_fault checks its parameters and clears")
  func mockFaultParameters() async throws {
    let report = try await MockHarness.run(
      """
      scenario: Faults come and go
      requires: [mock_control]
      client: native
      steps:
        - id: malformed
          mock_fault: { endpoint: /userinfo, kind: malformed, probability: 1 }
          expect: { kind: malformed, status: 200, probability: 1 }
        - id: bad_body
          http: { url: userinfo }
          expect: { status: 200, body: { type: string } }
        - id: clear
          mock_fault: { clear: true }
          expect: { cleared: true }
        - id: back
          http: { url: userinfo }
          expect: { status: 401 }
        - id: no_delay
          mock_fault: { endpoint: /userinfo, kind: delay }
      """)
    let noDelay = try requireValue(report.steps.first { $0.id == "no_delay" })
    #expect(noDelay.status == .failed)
    #expect(report.problemSummary.contains("delay"), "\(report.problemSummary)")
    #expect(report.steps.filter { $0.id != "no_delay" }.allSatisfy { $0.status == .passed }, "\(report.problemSummary)")
  }

  @Test("The invitation link opens the invitation's signup page with the invited email")
  func invitationPageLive() async throws {
    let report = try await MockHarness.run(
      """
      scenario: The invitation page
      requires: [mock_control]
      client: native
      vars:
        email: ${{ random_email() }}
      steps:
        - id: invite
          org_invitation: { organization: org_acme123, invitee: "${{ vars.email }}", inviter: Alice }
        - id: mail
          outbox: { to: "${{ vars.email }}" }
          expect:
            invitation: ${{ steps.invite.ticket_id }}
            organization: org_acme123
            organization_name: acme
        - id: page
          web_auth: { invitation_url: "${{ steps.mail.link }}", stop_at: signup }
          expect:
            pages: [signup]
            page.kind: signup
            page.fields.email: ${{ vars.email }}
            page.url: { contains: /u/signup }
            authorize_parameters.invitation: ${{ steps.invite.ticket_id }}
            authorize_parameters.organization: org_acme123
        - id: read_scope_only
          needs: [invite]
          http:
            url: oauth/token
            method: POST
            json:
              grant_type: client_credentials
              client_id: ${{ tenant.clients.m2m.client_id }}
              client_secret: ${{ tenant.clients.m2m.client_secret }}
              audience: ${{ tenant.issuer }}api/v2/
              scope: read:organization_invitations
        - id: create_refused
          org_invitation:
            organization: org_acme123
            invitee: someone@example.com
            token: ${{ steps.read_scope_only.body.access_token }}
          expect:
            error.code: insufficient_scope
            error.status: 403
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }
}
