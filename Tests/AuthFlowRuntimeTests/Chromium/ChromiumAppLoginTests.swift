import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// The mock's opt-in login page that is a JavaScript app (`login_page: { style: app }`: no form in
/// the HTML, a script draws it, posts JSON to `/api/auth/` and repeats the authorization request):
/// the built-in driver needs the profile's `login_pages.app` to get past it, a real browser runs
/// the app itself.
extension ChromiumDriverTests {
  @Suite("a login page that is a JavaScript app")
  struct AppLogin {
    @Test("chromium signs in through the app with no login_pages description; the built-in driver cannot")
    func chromiumRunsTheApp() async throws {
      try await ProfileLoginPageTests.withTenant(loginPage: "{ style: app }") { tenant in
        var context = tenant.context
        context.settings["browser"] = .string(BrowserEngine.chromium.rawValue)
        let outcome = try await ChromiumTestSupport.run(
          [ProfileLoginPageTests.login], tenant: context, secrets: tenant.secrets)
        let scenario = try #require(outcome.report.scenarios.first)
        #expect(scenario.status == .passed, "\(scenario.problemSummary)")
        #expect(outcome.pid != nil, "chromium was never started")
        #expect(!outcome.leftRunning)

        // The same scenario with the built-in driver stops at the app page: it runs no scripts.
        let (html, _) = try await ProfileLoginPageTests.run(ProfileLoginPageTests.login, on: tenant)
        #expect(html.status == .failed)
        #expect(ProfileLoginPageTests.failure(html).contains("no login form authflow can fill"))
      }
    }
  }
}
