import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

/// The authorization requests the OpenID conformance suite sends besides a plain GET, end to end
/// against the embedded mock on loopback: a form POST (OIDC Core §3.1.2.1), a request object
/// (OIDC Core §6.1, which the mock, as Auth0, refuses with request_not_supported), another client
/// authentication for the exchange, `response_mode=form_post` read as the callback; and
/// `server_configuration`.
@Suite("Authorization request forms")
struct AuthorizationRequestFormsTests {
  static let login =
    #"login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }"#

  @Test("method: POST sends the authorization request as a form, and the flow completes")
  func post() async throws {
    let report = try await MockHarness.run(
      """
      scenario: POST
      client: native
      steps:
        - id: login
          web_auth:
            method: POST
            \(Self.login)
          expect:
            id_token_valid: true
            callback_uri: ${{ client.redirect_uri }}
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
    let result = try #require(report.steps.first?.result)
    // The URL is the bare endpoint: the parameters went in the body.
    #expect(result.member("authorize_url")?.stringValue?.contains("?") == false)
    #expect(result.member("authorize_parameters")?.member("client_id") != nil)
  }

  @Test("a request object carries state and nonce inside only; the mock refuses it with request_not_supported")
  func requestObject() async throws {
    let report = try await MockHarness.run(
      """
      scenario: request object
      client: native
      steps:
        - id: login
          web_auth:
            request_object: {}
            \(Self.login)
          expect:
            error.code: request_not_supported
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
    let result = try #require(report.steps.first?.result)
    let url = try #require(result.member("authorize_url")?.stringValue)
    // Outside: the four parameters OIDC Core §6.1 repeats; state and nonce only inside.
    #expect(url.contains("request=") && url.contains("response_type=") && url.contains("client_id="))
    #expect(!url.contains("state=") && !url.contains("nonce="))
    let object = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "request" }?.value)
    let parts = object.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count == 3 && parts[2].isEmpty, "an unsigned JWT (alg none)")
    let header = try #require(Base64URL.decode(String(parts[0])))
    #expect(String(decoding: header, as: UTF8.self).contains(#""alg":"none""#))
    let claims = try Value(json: try #require(Base64URL.decode(String(parts[1]))))
    #expect(claims.member("state") != nil && claims.member("nonce") != nil)
  }

  @Test("another redirect_uri outside the request object than inside: the mock shows an error page")
  func requestObjectOutside() async throws {
    let report = try await MockHarness.run(
      """
      scenario: request object outside
      client: native
      steps:
        - id: login
          web_auth:
            request_object:
              outside: { redirect_uri: "${{ client.redirect_uri }}_invalid" }
            \(Self.login)
          expect:
            error.code: invalid_request
            page.kind: error
            pages: { not_contains: callback }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
    let url = try #require(report.steps.first?.result?.member("authorize_url")?.stringValue)
    #expect(url.contains("callback_invalid"))
  }

  @Test("token_endpoint_auth_method: client_secret_post puts the secret in the exchange's body")
  func clientSecretPost() async throws {
    let report = try await MockHarness.run(
      """
      scenario: client_secret_post
      client: web
      steps:
        - id: login
          web_auth:
            token_endpoint_auth_method: client_secret_post
            \(Self.login)
          expect:
            id_token_valid: true
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("response_mode=form_post: the page that posts the response is read as the callback")
  func formPost() async throws {
    let report = try await MockHarness.run(
      """
      scenario: form_post
      client: native
      steps:
        - id: login
          web_auth:
            parameters: { response_mode: form_post }
            \(Self.login)
          expect:
            id_token_valid: true
            authorization_response.state: { exists: true }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("a closed set of values is checked at run time too, where validation cannot see the value")
  func oneOfAtRunTime() async throws {
    let report = try await MockHarness.run(
      """
      scenario: method from an expression
      client: native
      steps:
        - id: login
          web_auth:
            method: ${{ 'PUT' }}
            \(Self.login)
      """)
    #expect(report.status == .failed)
    #expect(report.problemSummary.contains("expected one of 'GET', 'POST', found 'PUT'"), "\(report.problemSummary)")
  }

  @Test("server_configuration: the module's checks pass on the mock; the Config plan's fail it for http")
  func serverConfiguration() async throws {
    let report = try await MockHarness.run(
      """
      scenario: configuration
      steps:
        - id: module
          server_configuration: {}
          expect:
            status: 200
            discovery.issuer: ${{ tenant.issuer }}
        - id: config_plan
          server_configuration: { checks: config_plan }
      """)
    #expect(report.steps[0].status == .passed, "\(report.problemSummary)")
    #expect(report.steps[1].status == .failed)
    let messages = report.steps[1].problems.map(\.message)
    #expect(messages.contains { $0.contains("(CheckDiscEndpointAllEndpointsAreHttps, ") }, "\(messages)")
    #expect(messages.contains { $0.contains("(CheckDiscEndpointDiscoveryUrl, ") }, "\(messages)")
  }
}
