import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowMockTenant
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Synchronization
import Testing

/// Logins the tenant profile describes (`login_pages`, issue 16 items 4 and 4b(a)), against the
/// mock tenant serving an opt-in login page over real HTTP on loopback: a page whose only field is
/// `sub`, and a JavaScript app with no form that signs in with JSON and a `continue` parameter.
@Suite("Login pages driven by the profile")
struct ProfileLoginPageTests {
  /// A mock tenant whose fixture is the built-in one with `login_page` set, and whose profile in
  /// authflow.yaml carries `profileLines` (indented under the tenant).
  struct Tenant {
    var context: TenantContext
    var resolved: ResolvedTenant
    var secrets: SecretRegistry
  }

  static func withTenant(
    loginPage: String, profile profileLines: String = "",
    _ body: (Tenant) async throws -> Void
  ) async throws {
    try await Scoped.directory(prefix: "authflow-login") { directory in
      let defaultPath = try #require(FixtureLoader.defaultFixturePath)
      let fixture = try String(contentsOfFile: defaultPath, encoding: .utf8)
        .replacingOccurrences(of: "\ntenant:\n", with: "\ntenant:\n  login_page: \(loginPage)\n")
      try fixture.write(to: directory.appending(path: "fixture.yaml"), atomically: true, encoding: .utf8)
      let yaml = """
        tenants:
          op:
            kind: mock
            fixture: fixture.yaml
        \(profileLines)
        """
      let (config, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
      #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
      let profile = try #require(config?.tenant(named: "op"))
      let secrets = SecretRegistry()
      let resolver = TenantResolver(
        embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: directory.path)
      let resolved: ResolvedTenant
      do throws(TenantResolutionError) {
        resolved = try await resolver.resolve(profile)
      } catch {
        Issue.record("\(error.message) \(error.diagnostics.map(\.description))")
        return
      }
      try await Scoped.run(
        { try await body(Tenant(context: resolved.context, resolved: resolved, secrets: secrets)) },
        finally: { await resolved.stop() })
    }
  }

  /// Runs one scenario on `tenant`; every exchange is traced (scrubbed, as `--trace` prints it).
  static func run(_ yaml: String, on tenant: Tenant) async throws -> (ScenarioReport, trace: String) {
    let instances = try ScenarioHarness.parse(yaml).instances
    let trace = Mutex<[String]>([])
    let formatter = ExchangeFormatter()
    let secrets = tenant.secrets
    let live = LiveTransport()
    let transport = TracingTransport(wrapping: live) { exchange in
      SecretExtraction.register(exchange, in: secrets)
      trace.withLock { $0.append(secrets.scrub(formatter.format(exchange))) }
    }
    let services = RunServices(secrets: secrets, transport: transport, environment: [:])
    let runner = Runner(tenant: tenant.context, services: services, functions: Pipeline.functions, jobs: 1)
    let report = await runner.run(instances)
    try? await live.shutdown()
    let scenario = try #require(report.scenarios.first)
    return (scenario, trace.withLock { $0.joined(separator: "\n") })
  }

  static let login = """
    scenario: Alice signs in
    client: native
    steps:
      - id: login
        web_auth:
          login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        expect:
          pages: [login, callback]
          id_token_valid: true
          id_token.claims.email: ${{ tenant.users.alice.email }}
    """

  static let appProfile = """
        login_pages:
          app:
            page: /login.html
            requests:
              - method: POST
                url: /api/auth/
                json: { username: "${{ login.email }}", password: "${{ login.password }}" }
            continue:
              parameters: { continue: "${{ response.body.continue }}" }
    """

  static func failure(_ report: ScenarioReport) -> String {
    report.steps.flatMap(\.problems).map(\.message).joined(separator: "\n")
  }

  // MARK: One field named `sub`

  @Test("a login page whose only field is `sub` signs in when the profile names the field")
  func singleFieldWithProfile() async throws {
    try await Self.withTenant(
      loginPage: "{ style: single_field, field: sub }",
      profile: """
            login_pages:
              login: { fields: { email: sub } }
        """
    ) { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
    }
  }

  @Test("`forms: { email: sub }` alone also makes the `sub` page a login page")
  func singleFieldWithForms() async throws {
    try await Self.withTenant(loginPage: "{ style: single_field, field: sub }", profile: "    forms: { email: sub }") {
      tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
    }
  }

  @Test("a form selector and a submit button from the profile choose the form and the button")
  func selectorAndSubmit() async throws {
    try await Self.withTenant(
      loginPage: "{ style: single_field, field: who }",
      profile: """
            login_pages:
              login: { form: "#identify-form", fields: { email: who }, submit: Sign in }
        """
    ) { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
    }
    // A submit button the form does not have is a clear failure naming the buttons it has.
    try await Self.withTenant(
      loginPage: "{ style: single_field, field: who }",
      profile: """
            login_pages:
              login: { form: "#identify-form", fields: { email: who }, submit: Log me in }
        """
    ) { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .failed)
      #expect(Self.failure(report).contains("Log me in"), "\(Self.failure(report))")
      #expect(Self.failure(report).contains("Sign in"), "\(Self.failure(report))")
    }
  }

  @Test("without a profile description the `sub` page is 'no login form authflow can fill', with the hint")
  func singleFieldWithoutProfile() async throws {
    try await Self.withTenant(loginPage: "{ style: single_field, field: sub }") { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .failed)
      let message = Self.failure(report)
      #expect(message.contains("no login form authflow can fill: "), "\(message)")
      #expect(message.contains("/u/identify?state="), "the page URL: \(message)")
      #expect(message.contains("fields [state, _csrf, sub, action]"), "the forms found: \(message)")
      #expect(message.contains("login_pages") && message.contains("browser: chromium"), "\(message)")
    }
  }

  @Test("a consent page's button comes from the profile: `submit: Cancel` denies where the default accepts")
  func consentSubmit() async throws {
    let scenario = """
      scenario: consent at the social provider
      client: native
      steps:
        - id: login
          web_auth: { connection: github }
      """
    try await Self.withTenant(
      loginPage: "{ style: universal_login }",
      profile: """
            login_pages:
              consent: { form: "#github-consent", submit: Cancel }
        """
    ) { tenant in
      let (report, _) = try await Self.run(
        scenario + "\n    expect: { error.code: access_denied, pages: [consent, callback] }", on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
    }
    try await Self.withTenant(loginPage: "{ style: universal_login }") { tenant in
      let (report, _) = try await Self.run(
        scenario + "\n    expect: { id_token_valid: true, pages: [consent, callback] }", on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
    }
  }

  // MARK: A JavaScript app

  @Test("an app login page signs in with the profile's JSON request and continue parameter; no secret in the trace")
  func appWithProfile() async throws {
    try await Self.withTenant(loginPage: "{ style: app }", profile: Self.appProfile) { tenant in
      let (report, trace) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
      // The JSON login went out, and the authorization request was repeated with `continue`.
      #expect(trace.contains("POST \(tenant.context.baseURL)api/auth/"), "\(trace)")
      #expect(trace.contains("&continue="), "\(trace)")
      let password = try #require(tenant.context.users["alice"]?.member("password")?.stringValue)
      #expect(!trace.contains(password), "the password is masked in the trace")
      // The continue token signs the browser in, as a code does: masked like one.
      #expect(trace.contains("&continue=***"), "\(trace)")
    }
  }

  @Test("stop_at: login stops on the app page, which is a login page with no fields")
  func appStopAtLogin() async throws {
    try await Self.withTenant(loginPage: "{ style: app }", profile: Self.appProfile) { tenant in
      let scenario = """
        scenario: stop at the app login page
        client: native
        steps:
          - id: login
            web_auth: { stop_at: login }
            expect:
              page.kind: login
              page.error: null
              pages: [login]
        """
      let (report, _) = try await Self.run(scenario, on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
    }
  }

  @Test("without a profile the app page is 'no login form authflow can fill', not the spinner as a page_error")
  func appWithoutProfile() async throws {
    try await Self.withTenant(loginPage: "{ style: app }") { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .failed)
      let message = Self.failure(report)
      #expect(message.contains("no login form authflow can fill: "), "\(message)")
      #expect(message.contains("/login.html?return_to="), "\(message)")
      #expect(message.contains("it has no HTML form"), "\(message)")
      #expect(!message.contains("page_error") && !message.contains("answered with an error"), "\(message)")
    }
  }

  @Test("a wrong password at the app's JSON login is a page_error naming the request and the provider's message")
  func appWrongPassword() async throws {
    try await Self.withTenant(loginPage: "{ style: app }", profile: Self.appProfile) { tenant in
      let scenario = """
        scenario: wrong password
        client: native
        steps:
          - id: login
            web_auth:
              login: { email: "${{ tenant.users.alice.email }}", password: not-the-password }
            expect:
              error.code: page_error
              error.status: 401
              error.description: { contains: "login request 1 (POST " }
              page.kind: login
              page.error: { contains: "answered HTTP 401: Wrong email or password." }
              pages: [login]
        """
      let (report, trace) = try await Self.run(scenario, on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
      #expect(trace.contains("api/auth/") && !trace.contains("not-the-password"), "\(trace)")
    }
  }

  @Test("a 5xx from the app's login request is an environment failure (the tenant failed), not an assertion")
  func appServerError() async throws {
    try await Self.withTenant(loginPage: "{ style: app }", profile: Self.appProfile) { tenant in
      let scenario = """
        scenario: the login API fails
        client: native
        steps:
          - mock_fault: { endpoint: /api/auth/, kind: status, status: 503, count: 1 }
          - id: login
            web_auth:
              login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        """
      let (report, _) = try await Self.run(scenario, on: tenant)
      #expect(report.status == .error, "\(Self.failure(report))")
      #expect(
        Self.failure(report).contains("api/auth/ answered HTTP 503: the tenant failed"), "\(Self.failure(report))")
    }
  }

  @Test("a profile that sends the wrong JSON fields gets the provider's 400 as a clear failure")
  func appWrongFields() async throws {
    let profile = Self.appProfile.replacingOccurrences(of: "{ username:", with: "{ user:")
    try await Self.withTenant(loginPage: "{ style: app }", profile: profile) { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .failed)
      let message = Self.failure(report)
      #expect(message.contains("the login app refused the sign-in: login request 1 (POST "), "\(message)")
      #expect(message.contains("answered HTTP 400"), "\(message)")
      #expect(message.contains(#"with "username" and "password""#), "\(message)")
    }
  }

  @Test("a continuation that does not sign in (the wrong parameter) is reported, not looped on")
  func appWrongContinuation() async throws {
    let profile = Self.appProfile.replacingOccurrences(of: "{ continue:", with: "{ resume:")
    try await Self.withTenant(loginPage: "{ style: app }", profile: profile) { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .failed)
      let message = Self.failure(report)
      #expect(message.contains("came back after the profile's login requests succeeded"), "\(message)")
    }
  }

  @Test("a template error in the profile points at authflow.yaml")
  func appTemplateError() async throws {
    let profile = Self.appProfile.replacingOccurrences(of: "response.body.continue", with: "response.nope.continue")
    try await Self.withTenant(loginPage: "{ style: app }", profile: profile) { tenant in
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .failed)
      let message = Self.failure(report)
      #expect(message.contains("authflow.yaml:"), "\(message)")
      #expect(message.contains("login_pages.app"), "\(message)")
    }
  }

  @Test("the mock's continue token ends only the login of the browser that signed in, once")
  func appContinuationIsBrowserBound() async throws {
    try await Self.withTenant(loginPage: "{ style: app }") { tenant in
      let base = tenant.context.baseURL
      let transport = LiveTransport()
      let callback = "https://app.example.com/callback"
      let authorize =
        base + "authorize?client_id=native-client-id&response_type=code&scope=openid&state=s1&redirect_uri="
        + "https%3A%2F%2Fapp.example.com%2Fcallback"
      let signedIn = Browser(name: "signed-in", transport: transport, callbackPrefixes: [callback])
      let other = Browser(name: "other", transport: transport, callbackPrefixes: [callback])
      let page = try await signedIn.get(authorize)
      #expect(page.url.hasPrefix(base + "login.html?return_to=%2Fauthorize%3F"), "\(page.url)")
      let password = try #require(tenant.context.users["alice"]?.member("password")?.stringValue)
      let login = try await signedIn.send(
        .json(url: base + "api/auth/", body: ["username": "alice@example.com", "password": .string(password)]))
      let token = try #require(login.response.jsonValue?.member("continue")?.stringValue)
      let resumed = authorize + "&continue=" + token
      // Another browser (no app_login cookie) cannot use the token.
      let stolen = try await other.get(resumed)
      #expect(stolen.callbackURL == nil)
      #expect(stolen.response.status == 400)
      #expect(
        HTMLDocument.parse(stolen.response).errorMessages.first?.contains("names no login of this browser") == true)
      // The browser that signed in reaches the callback with a code, once.
      let done = try await signedIn.get(resumed)
      #expect(done.callbackURL?.contains("code=") == true, "\(done.response.status) \(done.url)")
      let again = try await signedIn.get(resumed)
      #expect(again.callbackURL == nil && again.response.status == 400)
      try? await transport.shutdown()
    }
  }

  // MARK: The default mock

  @Test("the default mock keeps Universal Login; its opt-in pages answer 404 as Auth0 would")
  func defaultMockUnchanged() async throws {
    try await Self.withTenant(loginPage: "{ style: universal_login }") { tenant in
      let transport = LiveTransport()
      for path in ["login.html", "u/identify?state=x"] {
        let response = try await transport.send(HTTPRequest(url: tenant.context.baseURL + path))
        #expect(response.status == 404, "\(path)")
      }
      let api = try await transport.send(
        .json(url: tenant.context.baseURL + "api/auth/", body: ["username": "a", "password": "b"]))
      #expect(api.status == 404)
      try? await transport.shutdown()
      let (report, _) = try await Self.run(Self.login, on: tenant)
      #expect(report.status == .passed, "\(Self.failure(report))")
    }
  }
}
