import AuthFlowCore
import AuthFlowResults
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Testing

/// `logout` at the end-session endpoint (OpenID Connect RP-Initiated Logout) as the OpenID
/// conformance suite's logout modules send it: on the mock's `/oidc/logout`, with a state that
/// must come back, defaults removed, and a provider that asks the user to confirm.
@Suite("RP-initiated logout")
struct EndSessionLogoutTests {
  static let login =
    #"login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }"#

  @Test("end_session on the mock: the state comes back exactly, and the session is gone")
  func endSessionOnTheMock() async throws {
    let report = try await MockHarness.run(
      """
      scenario: end session
      client: web
      steps:
        - id: login
          web_auth:
            \(Self.login)
        - id: logout
          logout:
            end_session: true
            return_to: https://web.example.com/
            id_token_hint: ${{ steps.login.id_token }}
            state: 'a b~c?d&e=f/%g'
            parameters: { client_id: null }
          expect:
            returned: true
            returned_parameters.state: 'a b~c?d&e=f/%g'
            logout_url: { contains: "/oidc/logout?" }
        - id: silent
          web_auth:
            parameters: { prompt: none }
          expect:
            error.code: login_required
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
    let url = try #require(report.steps[1].result?.member("logout_url")?.stringValue)
    #expect(!url.contains("client_id="), "client_id: null sends none: \(url)")
  }

  @Test("a post_logout_redirect_uri the client did not register is not returned to: the page is the result")
  func unregisteredIsNotReturnedTo() async throws {
    let report = try await MockHarness.run(
      """
      scenario: bad post-logout URI
      client: web
      steps:
        - id: login
          web_auth:
            \(Self.login)
        - id: logout
          logout:
            end_session: true
            return_to: https://web.example.com/elsewhere
            id_token_hint: ${{ steps.login.id_token }}
          expect:
            returned: false
            error.code: invalid_request
            page.kind: error
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  /// A provider that asks "Log out?" (RP-Initiated Logout §2: it SHOULD ask): without `confirm`
  /// the page is the result; with it, the form is sent and the browser returns.
  @Test("confirm: true submits a logout confirmation page; without it the page is the result")
  func confirmation() async throws {
    try await LoopbackServer.with({ router in
      router.get("/oidc/logout") { request, _ in
        let state = request.uri.queryParameters["state"].map(String.init) ?? ""
        return Response(
          status: .ok, headers: [.contentType: "text/html"],
          body: .init(
            byteBuffer: ByteBuffer(
              string: "<html><body><h1>Log out?</h1><form method=\"post\" action=\"/oidc/logout/confirm\">"
                + "<input type=\"hidden\" name=\"state\" value=\"\(state)\"><button>Log out</button></form></body></html>"
            )))
      }
      router.post("/oidc/logout/confirm") { request, context in
        let body = try await request.body.collect(upTo: 1 << 16)
        let form = String(buffer: body)
        // A provider that (wrongly) sends a code back too: it must be masked like any secret.
        return Response(
          status: .found, headers: [.location: "https://app.example/bye?" + form + "&code=leaked-code-4711"])
      }
    }) { base in
      var harness = ScenarioHarness(baseURL: base + "/")
      harness.clients = [
        "app": [
          "client_id": "c1", "redirect_uri": "https://app.example/cb", "logout_urls": ["https://app.example/bye"],
        ]
      ]
      let steps = { (confirm: Bool) in
        """
        scenario: confirm \(confirm)
        client: app
        steps:
          - id: logout
            logout:
              end_session: true
              return_to: https://app.example/bye
              state: s1
              confirm: \(confirm)
              parameters: { client_id: null }
            expect:
              returned: \(confirm)
        """
      }
      // An auth0-shaped tenant's end-session endpoint is /oidc/logout.
      let confirmed = try await harness.run(steps(true))
      #expect(confirmed.status == .passed, "\(confirmed.problemSummary)")
      #expect(confirmed.steps[0].result?.lookup(path: ["returned_parameters", "state"]) == "s1")
      // The transport learns the code from the redirect's Location, as it does every callback's.
      #expect(harness.secrets.contains("leaked-code-4711"), "a code in the return URL is a secret")
      let asked = try await harness.run(steps(false))
      #expect(asked.status == .passed, "\(asked.problemSummary)")
    }
  }
}
