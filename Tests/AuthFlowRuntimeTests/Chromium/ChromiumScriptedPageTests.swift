import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Testing

/// A provider whose login form exists only once JavaScript ran (drawn after a timer and a fetch,
/// and stamped by a submit handler), served from a small loopback server: chromium signs in
/// there, the built-in driver cannot; and the loopback callback is caught, never requested.
extension ChromiumDriverTests {
  @Suite("on a page drawn by JavaScript")
  struct ScriptedPage {
    static let code = "scripted-code-7f3a9c"

    /// The login app: an empty shell whose script fetches its settings, then draws the form; its
    /// submit handler adds the field the server insists on.
    static let shell = """
      <!doctype html>
      <html><head><title>Sign in</title></head>
      <body><div id="app">Loading</div>
      <script>
      var delay = Number(new URLSearchParams(location.search).get('draw_after') || '200');
      var submitAfter = Number(new URLSearchParams(location.search).get('submit_after') || '0');
      setTimeout(function () {
        fetch('/settings').then(function (r) { return r.json(); }).then(function (settings) {
          var form = document.createElement('form');
          form.method = 'post';
          form.action = '/login' + location.search;
          form.innerHTML = '<label>Email <input name="username"></label>' +
            '<label>Password <input type="password" name="password"></label>' +
            '<button type="submit">' + settings.label + '</button>';
          form.addEventListener('submit', function (event) {
            var stamp = document.createElement('input');
            stamp.type = 'hidden'; stamp.name = 'stamp'; stamp.value = 'drawn-by-script';
            form.appendChild(stamp);
            // A slow app: it holds the submission (no request, the page unchanged) for a while.
            if (submitAfter > 0) {
              event.preventDefault();
              setTimeout(function () { form.submit(); }, submitAfter);
            }
          });
          document.getElementById('app').replaceChildren(form);
        });
      }, delay);
      </script></body></html>
      """

    static func install(_ router: Router<BasicRequestContext>, callbacks: Counters) {
      router.get("/authorize") { _, _ in
        var fields = HTTPFields()
        fields[.contentType] = "text/html; charset=utf-8"
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(string: shell)))
      }
      router.get("/settings") { _, _ in Response.json(#"{"label": "Continue"}"#) }
      router.post("/login") { request, _ in
        let query = request.uri.queryParameters
        let body = try await request.body.collect(upTo: 65_536)
        let form = URLParameters(parsing: String(buffer: body), decoding: .form)
        let redirect = String(query["redirect_uri"] ?? "")
        let state = String(query["state"] ?? "")
        guard form["username"] == "alice@example.com", form["password"] == "S3cret-Pass!",
          form["stamp"] == "drawn-by-script"
        else {
          var fields = HTTPFields()
          fields[.contentType] = "text/html"
          return Response(
            status: .badRequest, headers: fields,
            body: .init(byteBuffer: ByteBuffer(string: #"<div role="alert">Wrong email or password.</div>"#)))
        }
        var fields = HTTPFields()
        fields[.location] = "\(redirect)?code=\(code)&state=\(state)"
        return Response(status: .found, headers: fields)
      }
      router.get("/callback") { _, _ in
        _ = callbacks.increment("callback")
        return Response.json("{}")
      }
      router.post("/oauth/token") { _, _ in
        Response.json(#"{"access_token": "at-scripted-1", "token_type": "Bearer", "expires_in": 3600}"#)
      }
    }

    static func scenario(browser: String, drawAfter: Int = 200, submitAfter: Int = 0) -> String {
      """
      scenario: Sign in on a login page drawn by JavaScript (\(browser))
      client: app
      steps:
        - id: login
          web_auth:
            browser: \(browser)
            parameters: { draw_after: "\(drawAfter)", submit_after: "\(submitAfter)" }
            validate_id_token: false
            login: { email: alice@example.com, password: "S3cret-Pass!" }
          expect:
            pages: [login, callback]
            token_type: Bearer
            access_token: { exists: true }
      """
    }

    func run(
      browser: String, drawAfter: Int = 200, submitAfter: Int = 0
    ) async throws -> (ChromiumTestSupport.Outcome, callbacks: Int) {
      let callbacks = Counters()
      let outcome = try await LoopbackServer.with({ router in Self.install(router, callbacks: callbacks) }) { base in
        let tenant = TenantContext(
          name: "scripted", kind: .auth0, baseURL: base + "/",
          clients: ["app": .object(["client_id": "app-1", "redirect_uri": .string(base + "/callback")])])
        return try await ChromiumTestSupport.run(
          [Self.scenario(browser: browser, drawAfter: drawAfter, submitAfter: submitAfter)], tenant: tenant)
      }
      return (outcome, callbacks.value("callback"))
    }

    @Test("chromium runs the page's scripts, fills the drawn form, and catches the loopback callback unsent")
    func chromiumSignsIn() async throws {
      let (outcome, callbacks) = try await run(browser: "chromium")
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
      #expect(callbacks == 0, "the callback (with the code) was requested from the app")
      #expect(!outcome.leftRunning)
    }

    @Test("A form drawn 1.5 s after the page went quiet is waited for (the page is read again while it shows no form)")
    func lateForm() async throws {
      let (outcome, callbacks) = try await run(browser: "chromium", drawAfter: 1500)
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
      #expect(callbacks == 0)
    }

    /// Without the wait, the unchanged page read back after the quiet period was taken for a second
    /// login page and submitted again (pages `[login, login, callback]`).
    @Test("A submission a script holds for 1.5 s is waited for: one login page, then the callback")
    func lateSubmission() async throws {
      let (outcome, callbacks) = try await run(browser: "chromium", submitAfter: 1500)
      let scenario = try #require(outcome.report.scenarios.first)
      #expect(scenario.status == .passed, "\(scenario.problemSummary)")
      #expect(callbacks == 0)
    }

    @Test("A page that never answers is an environment error after the page deadline, not a hang")
    func pageDeadline() async throws {
      var configuration = ChromiumHost.Configuration()
      configuration.pageTimeout = .seconds(2)
      let outcome = try await LoopbackServer.with({ router in
        router.get("/authorize") { _, _ in
          try? await Task.sleep(for: .seconds(20))
          return Response.json("{}")
        }
      }) { base in
        let tenant = TenantContext(
          name: "hanging", kind: .auth0, baseURL: base + "/",
          clients: ["app": .object(["client_id": "app-1", "redirect_uri": .string(base + "/callback")])])
        return try await ChromiumTestSupport.run(
          [Self.scenario(browser: "chromium")], tenant: tenant, configuration: configuration)
      }
      let step = try #require(outcome.report.scenarios.first?.step("login"))
      #expect(step.status == .error, "\(step.problems)")
      #expect(
        step.problems.first?.message.contains("did not finish loading in chromium within 2") == true,
        "\(step.problems.map(\.message))")
      #expect(outcome.report.exitCode == .environment)
      #expect(!outcome.leftRunning)
    }

    @Test("The built-in driver, which runs no scripts, finds no form on the same page")
    func htmlDriverCannot() async throws {
      let (outcome, _) = try await run(browser: "html")
      let step = try #require(outcome.report.scenarios.first?.step("login"))
      #expect(step.status == .failed)
      #expect(step.problems.first?.message.contains("no login form authflow can fill") == true, "\(step.problems)")
      #expect(outcome.pid == nil, "chromium was started for the built-in driver")
    }
  }
}
