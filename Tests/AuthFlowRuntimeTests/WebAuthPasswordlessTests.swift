import AuthFlowCore
import AuthFlowHTTP
import Testing

@testable import AuthFlowRuntime

/// `web_auth` through the Universal Login passwordless pages (`connection: email|sms`), live
/// against the embedded mock: the address page, the code read from the outbox, the callback.
@Suite("Web Auth passwordless pages")
struct WebAuthPasswordlessTests {
  @Test(
    "The passwordless pages are recognised",
    arguments: [
      (
        #"<form id="passwordless-form" method="post" action="/u/passwordless"><input name="email"></form>"#,
        PageKind.passwordless
      ),
      (
        #"<form method="post" action="/u/passwordless?state=x"><input type="tel" name="phone_number"></form>"#,
        .passwordless
      ),
      (
        #"<form method="post" action="/u/passwordless-challenge?state=x"><input name="code"></form>"#,
        .passwordlessCode
      ),
      (
        #"<form method="post" action="/u/login/passwordless-email-challenge"><input name="code"></form>"#,
        .passwordlessCode
      ),
    ])
  func pageKinds(_ html: String, _ expected: PageKind) {
    #expect(PageKind.classify(WebAuthPageTests.page(html)) == expected)
  }

  @Test("An email code from the outbox completes the login and opens an SSO session")
  func emailLogin() async throws {
    let report = try await MockHarness.run(
      """
      scenario: Passwordless Universal Login
      requires: [mock_control]
      client: native
      vars:
        email: ${{ random_email() }}
      steps:
        - id: login
          web_auth:
            connection: email
            scope: openid email
            passwordless: { email: "${{ vars.email }}" }
          expect:
            id_token_valid: true
            id_token.claims.email: ${{ vars.email }}
            id_token.claims.sub: { starts_with: "email|" }
            pages: [passwordless, passwordless_code, callback]
        - id: again
          web_auth: { scope: openid email }
          expect:
            pages: [callback]
            id_token.claims.email: ${{ vars.email }}
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("A text message code works the same way; stop_at shows the code page")
  func smsLogin() async throws {
    let report = try await MockHarness.run(
      """
      scenario: Passwordless Universal Login by SMS
      requires: [mock_control]
      client: native
      steps:
        - id: page
          web_auth:
            connection: sms
            browser: peek
            passwordless: { phone_number: "+14155550142" }
            stop_at: passwordless_code
          expect:
            page.kind: passwordless_code
            page.fields.code: ""
            pages: [passwordless, passwordless_code]
        - id: login
          web_auth:
            connection: sms
            passwordless: { phone_number: "+14155550142" }
          expect:
            id_token_valid: true
            id_token.claims.sub: { starts_with: "sms|" }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("A wrong code fails the step with the page's error")
  func wrongCode() async throws {
    let report = try await MockHarness.run(
      """
      scenario: Passwordless Universal Login with a wrong code
      requires: [mock_control]
      client: native
      steps:
        - id: login
          web_auth:
            connection: email
            passwordless: { email: wrong@example.com, code: "abcdef" }
          expect:
            error.code: page_error
            error.description: Wrong email or verification code.
            page.kind: passwordless_code
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("Without passwordless values the step says what is missing")
  func missingValues() async throws {
    let report = try await MockHarness.run(
      """
      scenario: Passwordless page without values
      requires: [mock_control]
      client: native
      steps:
        - id: login
          web_auth: { connection: email }
      """)
    #expect(report.status != .passed)
    #expect(
      report.problemSummary.contains("the passwordless page was shown but the step gives no `passwordless` values"))
  }
}
