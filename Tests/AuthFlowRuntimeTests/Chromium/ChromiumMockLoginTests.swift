import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// The real-browser driver (`browser: chromium`) against the embedded mock tenant on loopback:
/// the same page kinds, step results and failures as the built-in HTML driver, the native
/// client's custom-scheme callback caught, chromium stopped and its profile removed at the end.
extension ChromiumDriverTests {
  @Suite("against the mock tenant")
  struct MockLogin {
    static let login = """
      scenario: Alice logs in through a real browser
      client: native
      steps:
        - id: login
          web_auth:
            browser: chromium
            login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
            audience: https://api.example.com
          expect:
            pages: [login, callback]
            id_token_valid: true
            id_token.claims.email: alice@example.com
            access_token.claims.sub: ${{ tenant.users.alice.user_id }}
            token_type: Bearer
        - id: sso
          web_auth: { browser: chromium, parameters: { prompt: none } }
          expect:
            pages: [callback]
            id_token.claims.email: alice@example.com
      """

    @Test("An end-to-end login through Universal Login, then SSO in the same browser; chromium is stopped after")
    func endToEndLogin() async throws {
      let outcome = try await ChromiumTestSupport.runOnMock([Self.login])
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
      #expect(outcome.pid != nil, "chromium was never started")
      #expect(!outcome.leftRunning, "chromium outlived the run")
      #expect(!LaunchedProcesses.running.contains { $0 == outcome.pid }, "chromium is still recorded as running")
    }

    @Test("stop_at: login returns the same page result as the built-in driver")
    func stopAtLoginMatchesHTMLDriver() async throws {
      func scenario(_ browser: String) -> String {
        """
        scenario: Stop at the login page (\(browser))
        client: native
        steps:
          - id: page
            web_auth: { browser: \(browser), stop_at: login }
            expect:
              page.kind: login
              pages: [login]
        """
      }
      let chromium = try await ChromiumTestSupport.runOnMock([scenario("chromium")])
      let html = try await ChromiumTestSupport.runOnMock([scenario("html")])
      let viaChromium = try #require(chromium.report.scenarios.first?.step("page"))
      let viaHTML = try #require(html.report.scenarios.first?.step("page"))
      #expect(viaChromium.status == .passed, "\(chromium.report.scenarios.first?.problemSummary ?? "")")
      #expect(viaHTML.status == .passed)
      let pageChromium = try #require(viaChromium.result?.member("page"))
      let pageHTML = try #require(viaHTML.result?.member("page"))
      #expect(pageChromium.member("kind") == pageHTML.member("kind"))
      #expect(pageChromium.member("status") == pageHTML.member("status"))
      #expect(pageChromium.member("error") == pageHTML.member("error"))
      let fieldsChromium = pageChromium.member("fields")?.objectValue ?? [:]
      let fieldsHTML = pageHTML.member("fields")?.objectValue ?? [:]
      #expect(!fieldsHTML.isEmpty)
      #expect(fieldsChromium.keys.sorted() == fieldsHTML.keys.sorted())
      #expect(fieldsChromium.mapValues(\.isSecret) == fieldsHTML.mapValues(\.isSecret))
    }

    @Test("A wrong password ends on the login page with the provider's error, as with the built-in driver")
    func wrongPassword() async throws {
      let outcome = try await ChromiumTestSupport.runOnMock(
        [
          """
          scenario: A wrong password in a real browser
          client: native
          steps:
            - id: wrong_password
              web_auth:
                browser: chromium
                login: { email: "${{ tenant.users.alice.email }}", password: not-the-password }
              expect:
                error.code: page_error
                error.description: Wrong email or password.
                page.kind: login
                page.error: Wrong email or password.
                page.fields.username: ${{ tenant.users.alice.email }}
                pages: [login, login]
          """
        ])
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
    }

    @Test("A consent page is recognised, stopped at, and accepted")
    func consentPage() async throws {
      let outcome = try await ChromiumTestSupport.runOnMock(
        [
          """
          scenario: The simulated GitHub consent page in a real browser
          client: native
          steps:
            - id: stop
              web_auth: { browser: chromium, connection: github, stop_at: consent }
              expect:
                page.kind: consent
                page.fields.account: "583231"
                pages: [consent]
            - id: accept
              needs: []
              web_auth: { browser: chromium, connection: github, response_type: code }
              expect:
                pages: [consent, callback]
                id_token.claims.sub: github|583231
          """
        ])
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
    }

    @Test("With the tenant's `browser: chromium`, named browsers are separate contexts: only the same name shares SSO")
    func namedBrowsersAreSeparateContexts() async throws {
      let outcome = try await ChromiumTestSupport.runOnMock(
        [
          """
          scenario: Named browsers in chromium
          client: native
          steps:
            - id: alice_logs_in
              web_auth:
                browser: phone
                login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
              expect: { pages: [login, callback] }
            - id: same_browser
              web_auth: { browser: phone, parameters: { prompt: none } }
              expect: { pages: [callback], id_token.claims.email: alice@example.com }
            - id: other_browser
              needs: [alice_logs_in]
              web_auth: { browser: laptop, parameters: { prompt: none } }
              expect: { error.code: login_required, pages: [callback] }
          """
        ], browser: .chromium)
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
      #expect(outcome.pid != nil, "the tenant's browser: chromium did not start chromium")
    }

    @Test("Nothing chromium fetched leaks the password or the code into the trace")
    func traceIsMasked() async throws {
      let secrets = SecretRegistry()
      let trace = ChromiumTestSupport.TraceLines()
      let outcome = try await ChromiumTestSupport.runOnMock([Self.login], secrets: secrets, trace: trace)
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
      let text = trace.all.joined(separator: "\n")
      #expect(text.contains("→ POST"), "the login form's submission was not traced")
      #expect(text.contains("/authorize"))
      #expect(!text.contains("Alice-Passw0rd!"), "the password is in the trace")
      // The redirect to the callback and the caught callback itself are traced, the code masked.
      #expect(text.contains("caught by authflow"), "the caught callback was not traced")
      let codes = text.components(separatedBy: "code=").dropFirst()
      #expect(!codes.isEmpty, "no callback URL in the trace")
      for rest in codes {
        #expect(rest.hasPrefix(Redaction.mask), "an unmasked code in the trace: code=\(rest.prefix(12))…")
      }
    }

    @Test("A missing chromium is an environment error with a hint, not a crash")
    func missingChromium() async throws {
      let outcome = try await ChromiumTestSupport.runOnMock(
        [Self.login], environment: ["AUTHFLOW_CHROMIUM": "/nonexistent/chromium"])
      let step = try #require(outcome.report.scenarios.first?.step("login"))
      #expect(step.status == .error)
      #expect(step.problems.first?.message.contains("chromium was not found") == true)
      #expect(step.problems.first?.message.contains("/nonexistent/chromium") == true)
      #expect(step.problems.first?.message.contains("apt-get install chromium") == true)
      #expect(outcome.report.exitCode == .environment)
      #expect(outcome.pid == nil)
    }
  }
}
