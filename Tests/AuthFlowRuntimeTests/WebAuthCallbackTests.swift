import AuthFlowCore
import AuthFlowResults
import AuthFlowTestSupport
import Hummingbird
import Testing

@testable import AuthFlowRuntime

/// `web_auth` stopped at the callback: the callback is checked as the full flow checks it (an
/// error in it is the step's error, never a pass because the callback was reached), and the step
/// gives what a scenario needs to finish the flow by hand (the code and the PKCE verifier).
@Suite("web_auth at the callback")
struct WebAuthCallbackTests {
  static let header = """
    scenario: At the callback
    client: native
    steps:
    """

  /// The false green of a newcomer: `code_challenge: null` (the mock, as Auth0, then redirects back
  /// with `error=invalid_request`) and `expect: { page.kind: callback }` exited 0.
  @Test("An error at the callback fails a step that does not expect it, naming the callback's error")
  func errorAtTheCallbackFails() async throws {
    let scenario = try await MockHarness.run(
      Self.header + """

          - id: authorize
            web_auth:
              login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
              parameters: { code_challenge: null, code_challenge_method: S256 }
              stop_at: callback
            expect:
              page.kind: callback
        """)
    let step = try #require(scenario.step("authorize"))
    #expect(scenario.status == .failed)
    #expect(step.status == .failed)
    let message = step.problems.map(\.message).joined(separator: "\n")
    #expect(message.contains("'invalid_request'"), "\(message)")
    // The callback's error is in the result: the step's `error`, and the page's.
    let result = try #require(step.result)
    #expect(result.protocolErrorCode == "invalid_request")
    #expect(result.member("page")?.member("error")?.stringValue?.isEmpty == false)
    // The URL that carries the error is readable: only secrets are masked in it.
    let url = try #require(result.member("page")?.member("url"))
    #expect(!url.isSecret)
    #expect(url.stringValue?.contains("error=invalid_request") == true)
  }

  @Test("A step that expects the callback's error passes, and reads it as error.code and page.error")
  func expectedErrorAtTheCallbackPasses() async throws {
    let scenario = try await MockHarness.run(
      Self.header + """

          - id: authorize
            web_auth:
              login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
              parameters: { code_challenge: null, code_challenge_method: S256 }
              stop_at: callback
            expect:
              page.kind: callback
              error.code: invalid_request
              error.status: 302
              page.url: { starts_with: "${{ client.redirect_uri }}?" }
        """)
    #expect(scenario.status == .passed, "\(scenario.steps.flatMap(\.problems).map(\.message))")
  }

  @Test("A callback whose state differs fails the step at the callback, as it does when the flow goes on")
  func stateCheckedAtTheCallback() async throws {
    let scenario = try await MockHarness.run(
      Self.header + """

          - id: authorize
            web_auth:
              login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
              stop_at: callback
        """
    )
    // The mock echoes the state sent; the check holds and the step passes.
    #expect(scenario.status == .passed, "\(scenario.steps.flatMap(\.problems).map(\.message))")
    let parameters = CallbackParameters(url: "https://app.example.com/cb?code=abc&state=other")
    #expect(parameters.stateMismatch(expected: "sent", url: parameters.url) != nil)
  }

  @Test("code_challenge: null sends no PKCE at all: neither challenge nor method")
  func noChallengeNoMethod() throws {
    var options = AuthorizeRequest.Options(clientID: "c", redirectURI: "https://app.example.com/cb")
    options.removed = ["code_challenge"]
    let request = AuthorizeRequest(options)
    #expect(request.parameters["code_challenge"] == nil)
    #expect(request.parameters["code_challenge_method"] == nil)
    #expect(request.codeVerifier == nil)
    // A method given on purpose is still sent (a request with a method and no challenge).
    options.extra = [("code_challenge_method", "S256")]
    #expect(AuthorizeRequest(options).parameters["code_challenge_method"] == "S256")
    // By default both are sent.
    let plain = AuthorizeRequest(AuthorizeRequest.Options(clientID: "c", redirectURI: "https://app.example.com/cb"))
    #expect(plain.parameters["code_challenge_method"] == "S256")
    #expect(plain.parameters["code_challenge"] != nil)
  }

  @Test("The docs' `code_challenge: null` signs in on the mock: no challenge and no verifier are sent")
  func documentedNoPKCEFlowPasses() async throws {
    // The mock, as Auth0, lets a confidential client exchange a code requested without PKCE.
    let scenario = try await MockHarness.run(
      """
      scenario: No PKCE
      client: web
      steps:
        - id: login
          web_auth:
            login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
            parameters: { code_challenge: null }
          expect:
            authorize_parameters.code_challenge: { exists: false }
            authorize_parameters.code_challenge_method: { exists: false }
            access_token: { exists: true }
      """)
    #expect(scenario.status == .passed, "\(scenario.steps.flatMap(\.problems).map(\.message))")
  }

  @Test("stop_at: callback gives the code and the verifier, both secret, and a token step redeems them")
  func redeemByHand() async throws {
    let secrets = SecretRegistry()
    let report = try await MockHarness.run(
      [
        Self.header + """

            - id: authorize
              web_auth:
                login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
                stop_at: callback
              expect:
                code: { exists: true }
                code_verifier: { exists: true }
                authorize_parameters.code_challenge: ${{ pkce_challenge(steps.authorize.code_verifier) }}
            - id: exchange
              token:
                body:
                  grant_type: authorization_code
                  code: ${{ steps.authorize.code }}
                  code_verifier: ${{ steps.authorize.code_verifier }}
                  redirect_uri: ${{ client.redirect_uri }}
              expect:
                access_token: { exists: true }
                id_token.claims.nonce: ${{ steps.authorize.authorize_parameters.nonce }}
          """
      ], secrets: secrets)
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.status == .passed, "\(scenario.steps.flatMap(\.problems).map(\.message))")
    let result = try #require(scenario.step("authorize")?.result)
    #expect(result.member("code")?.isSecret == true)
    #expect(result.member("code_verifier")?.isSecret == true)
    // The code inside the URL is masked wherever the URL is shown.
    let url = try #require(result.member("page")?.member("url")?.stringValue)
    let code = try #require(result.member("code")?.stringValue)
    #expect(url.contains(code))
    #expect(!secrets.scrub(url).contains(code))
  }

  @Test("A code exchange refused without a code_verifier says the verifier is missing")
  func missingVerifierIsNamed() async throws {
    let scenario = try await MockHarness.run(
      Self.header + """

          - id: authorize
            web_auth:
              login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
              stop_at: callback
          - id: exchange
            token:
              body:
                grant_type: authorization_code
                code: ${{ steps.authorize.code }}
                redirect_uri: ${{ client.redirect_uri }}
            expect:
              access_token: { exists: true }
        """)
    let step = try #require(scenario.step("exchange"))
    #expect(step.status == .failed)
    let message = step.problems.map(\.message).joined(separator: "\n")
    #expect(message.contains("sent no code_verifier"), "\(message)")
    #expect(message.contains("public client"), "\(message)")
  }

  @Test("A wrong error.code shows the tenant's error_description beside it")
  func errorCodeMismatchShowsTheDescription() async throws {
    let scenario = try await MockHarness.run(
      Self.header + """

          - id: exchange
            token:
              body: { grant_type: authorization_code, redirect_uri: "${{ client.redirect_uri }}" }
            expect:
              error.code: invalid_grant
        """)
    let step = try #require(scenario.step("exchange"))
    #expect(step.status == .failed)
    let message = step.problems.map(\.message).joined(separator: "\n")
    #expect(message.contains("found \"invalid_request\""), "\(message)")
    #expect(message.contains("the tenant said \"Missing required parameter: code\""), "\(message)")
  }

  @Test("A login page that answers with an error after a field was left empty names the field")
  func emptyFieldIsNamed() async throws {
    let document = WebAuthPageTests.page(
      #"<form method="post" action="/u/login"><input name="username"><input type="password" name="password"></form>"#)
    let form = try #require(document.forms.first)
    let filled = FormFieldMapping(settings: [:]).fieldValues(["email": "a@b.c", "pass": "x"], for: form, kind: .login)
    #expect(UniversalLoginDriver.emptyFields(of: form, filling: filled) == ["password"])
    // `pass` is refused before a run (`authflow validate`, ProjectCheckTests); the loader alone lets
    // it through to the page, where it fills nothing.
    let scenario = try await MockHarness.run(
      Self.header + """

          - id: login
            web_auth:
              login: { email: "${{ tenant.users.alice.email }}", pass: "${{ tenant.users.alice.password }}" }
        """)
    let step = try #require(scenario.step("login"))
    #expect(step.status == .failed)
    let message = step.problems.map(\.message).joined(separator: "\n")
    #expect(message.contains("'password' that the step's values left empty"), "\(message)")
    #expect(message.contains("they give: email, pass"), "\(message)")
  }
}

/// `logout` that comes back to the return URL with an error: the logout was refused.
@Suite("logout back with an error")
struct LogoutErrorRedirectTests {
  @Test("A redirect to returnTo carrying error= fails the step unless it expects the error")
  func errorRedirectIsTheStepsError() async throws {
    let returnTo = "com.test.app://127.0.0.1/callback"
    let yaml = { (expect: String) in
      """
      scenario: logout
      client: app
      steps:
        - id: out
          logout: {}
      \(expect)
      """
    }
    let (refused, expected) = try await LoopbackServer.with({ router in
      router.get("/v2/logout") { request, _ in
        let back = request.uri.queryParameters["returnTo"].map(String.init) ?? ""
        return Response(
          status: .found,
          headers: [.location: back + "?error=invalid_request&error_description=The%20session%20is%20unknown"])
      }
    }) { base in
      var harness = ScenarioHarness(baseURL: base)
      harness.clients = ["app": .object(["client_id": .string("test-client"), "redirect_uri": .string(returnTo)])]
      let expectation = "    expect: { error.code: invalid_request, error.description: The session is unknown }"
      return (try await harness.run(yaml("")), try await harness.run(yaml(expectation)))
    }
    #expect(refused.status == .failed)
    let message = refused.steps.flatMap(\.problems).map(\.message).joined()
    #expect(message.contains("'invalid_request'") && message.contains("The session is unknown"), "\(message)")
    #expect(expected.status == .passed, "\(expected.steps.flatMap(\.problems).map(\.message))")
  }
}
