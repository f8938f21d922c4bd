import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRuntime
import Testing

/// `authflow doctor` looks at the login page (issue 16 item 4c): per client profile an
/// authorization request over real HTTP against the mock's login page styles, and what it says.
@Suite("Doctor looks at the login page")
struct LoginPageDoctorTests {
  static func examine(_ tenant: ProfileLoginPageTests.Tenant) async -> DoctorReport {
    let transport = LiveTransport()
    let report = await TenantDoctor(transport: transport).examine(tenant.context, configuredIssuer: nil)
    try? await transport.shutdown()
    return report
  }

  static func loginChecks(_ report: DoctorReport) -> [DoctorReport.Check] {
    report.checks.filter { $0.section == .loginPages }
  }

  @Test("Universal Login: each signing-in client's page is a login form found by the built-in names")
  func universalLogin() async throws {
    try await ProfileLoginPageTests.withTenant(loginPage: "{ style: universal_login }") { tenant in
      let report = await Self.examine(tenant)
      let checks = Self.loginChecks(report)
      #expect(report.exitCode == .success, "\(report.render())")
      let native = try #require(checks.first { $0.message.hasPrefix("native: ") })
      #expect(native.outcome == .passed)
      #expect(
        native.message.hasPrefix("native: \(tenant.context.baseURL)u/login?… is a login page"), "\(native.message)")
      #expect(native.message.contains("is a login page authflow can fill (form #login-form POST "), "\(native.message)")
      #expect(
        native.message.contains("fields [state, _csrf, captcha, username, password, action]"), "\(native.message)")
      #expect(native.message.hasSuffix("recognised by the built-in field names"), "\(native.message)")
      #expect(!checks.contains { $0.message.hasPrefix("m2m: ") }, "a machine-to-machine client has no login page")
      let b2b = try #require(checks.first { $0.message.hasPrefix("b2b: ") })
      #expect(b2b.message.contains("is an organization page authflow can fill"), "\(b2b.message)")
      #expect(report.render().contains("Login pages\n  ✓ b2b: "), "\(report.render())")
    }
  }

  @Test("a `sub` page: failed with the fix without a profile, passed with login_pages.login")
  func singleField() async throws {
    try await ProfileLoginPageTests.withTenant(loginPage: "{ style: single_field, field: sub }") { tenant in
      let report = await Self.examine(tenant)
      let native = try #require(Self.loginChecks(report).first { $0.message.hasPrefix("native: ") })
      #expect(native.outcome == .failed)
      #expect(native.message.contains("no login form authflow can fill at "), "\(native.message)")
      #expect(native.message.contains("fields [state, _csrf, sub, action]"), "\(native.message)")
      #expect(native.fix?.contains("login_pages") == true && native.fix?.contains("browser: chromium") == true)
      #expect(report.exitCode == .failure)
    }
    try await ProfileLoginPageTests.withTenant(
      loginPage: "{ style: single_field, field: sub }",
      profile: """
            login_pages:
              login: { fields: { email: sub } }
        """
    ) { tenant in
      let report = await Self.examine(tenant)
      let native = try #require(Self.loginChecks(report).first { $0.message.hasPrefix("native: ") })
      #expect(native.outcome == .passed, "\(native.message)")
      #expect(native.message.hasSuffix("recognised as the profile's login_pages.login describes it"))
      #expect(report.exitCode == .success, "\(report.render())")
    }
  }

  @Test("an app page: 'no login form' (not an error page) without a profile; the profile's login with one")
  func app() async throws {
    try await ProfileLoginPageTests.withTenant(loginPage: "{ style: app }") { tenant in
      let report = await Self.examine(tenant)
      let native = try #require(Self.loginChecks(report).first { $0.message.hasPrefix("native: ") })
      #expect(native.outcome == .failed)
      #expect(native.message.contains("/login.html?…: no HTML form"), "\(native.message)")
      #expect(native.message.contains("no HTML form"), "\(native.message)")
      #expect(!native.message.contains("refused"), "the spinner is not taken for an error: \(native.message)")
    }
    try await ProfileLoginPageTests.withTenant(loginPage: "{ style: app }", profile: ProfileLoginPageTests.appProfile) {
      tenant in
      let report = await Self.examine(tenant)
      let native = try #require(Self.loginChecks(report).first { $0.message.hasPrefix("native: ") })
      #expect(native.outcome == .passed, "\(native.message)")
      #expect(
        native.message.contains("login app with no form; authflow signs in as the profile's login_pages.app says"))
      #expect(native.message.contains("POST /api/auth/ (json), then the authorization request repeated"))
    }
  }

  @Test("a client whose redirect_uri the provider refuses is a failed check naming the provider's error")
  func refusedClient() async throws {
    try await ProfileLoginPageTests.withTenant(
      loginPage: "{ style: universal_login }",
      profile: """
            clients:
              native: { client_id: native-client-id, redirect_uri: "https://evil.example.com/callback" }
        """
    ) { tenant in
      let report = await Self.examine(tenant)
      let native = try #require(Self.loginChecks(report).first { $0.message.hasPrefix("native: ") })
      #expect(native.outcome == .failed)
      #expect(native.message.contains("refused with an error page"), "\(native.message)")
      #expect(native.fix?.contains("redirect_uri") == true)
    }
  }
}
