import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// A tenant's `browser:` (the driver of `web_auth`'s login pages) and a step's `browser` choice.
@Suite struct BrowserEngineConfigTests {
  @Test func aTenantNamesItsBrowser() throws {
    let input = MarkedText(
      """
      tenants:
        js_login:
          kind: oidc
          issuer: https://idp.example.com
          browser: 1️⃣chromium
        plain:
          kind: mock
      """)
    let (parsed, diagnostics) = ProjectConfigParser().parse(input.text, file: testFile)
    expectClean(diagnostics)
    let config = try #require(parsed)
    let browser = try #require(config.tenant(named: "js_login")?.browser)
    #expect(browser.value == .chromium)
    #expect("\(browser.location.line):\(browser.location.column)" == input["1️⃣"].description)
    #expect(config.tenant(named: "plain")?.browser == nil)
  }

  @Test func anUnknownBrowserIsLocatedWithAHint() {
    let input = MarkedText(
      """
      tenants:
        js_login:
          kind: mock
          browser: 1️⃣chromeum
        other:
          kind: mock
          browser: 2️⃣firefox
      """)
    let found = ProjectConfigParser().parse(input.text, file: testFile).diagnostics
    expectDiagnostic(found, at: input["1️⃣"], "unknown browser 'chromeum'", hint: "did you mean 'chromium'?")
    expectDiagnostic(found, at: input["2️⃣"], "unknown browser 'firefox'", hint: "use one of 'html', 'chromium'")
    #expect(found.count == 2)
  }

  @Test(
    "A step's browser names an engine (default jar) or a jar (the tenant's engine)",
    arguments: [
      ("chromium", nil, BrowserEngine.chromium, nil),
      ("html", BrowserEngine.chromium, .html, nil),
      ("phone", .chromium, .chromium, "phone"),
      ("phone", nil, .html, "phone"),
      (nil, .chromium, .chromium, nil),
      (nil, nil, .html, nil),
    ] as [(String?, BrowserEngine?, BrowserEngine, String?)])
  func selection(step: String?, tenant: BrowserEngine?, engine: BrowserEngine, name: String?) {
    let selected = BrowserEngine.select(step: step, tenant: tenant)
    #expect(selected.engine == engine)
    #expect(selected.name == name)
  }
}
