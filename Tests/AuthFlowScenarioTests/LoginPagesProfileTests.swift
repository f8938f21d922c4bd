import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// `login_pages:` of a tenant in authflow.yaml: what it reads, and every problem located.
@Suite struct LoginPagesProfileTests {
  private func parse(_ input: MarkedText) -> (config: ProjectConfig?, diagnostics: [Diagnostic]) {
    ProjectConfigParser().parse(input.text, file: testFile)
  }

  @Test func readsFormsAndAnAppLogin() throws {
    let (config, diagnostics) = parse(
      MarkedText(
        """
        tenants:
          op:
            kind: oidc
            issuer: https://op.example.com
            login_pages:
              login: { form: "#signin", fields: { email: sub, password: pw }, submit: Sign in }
              consent: { form: "[action*=/consent]", submit: allow }
              app:
                page: /login.html
                requests:
                  - method: post
                    url: /api/auth/
                    json: { username: "${{ login.email }}", password: "${{ login.password }}" }
                  - url: /api/mfa
                    form: { remember: true }
                continue:
                  parameters: { continue: "${{ response.body.continue }}" }
        """))
    expectClean(diagnostics)
    let pages = try #require(config?.tenant(named: "op")?.loginPages)
    #expect(pages.login?.form?.value == "#signin")
    #expect(pages.login?.fields.map(\.name.value) == ["email", "password"])
    #expect(pages.login?.submit?.literalValue == "Sign in")
    #expect(pages.consent?.form?.value == "[action*=/consent]")
    let app = try #require(pages.app)
    #expect(app.page?.literalValue == "/login.html")
    #expect(app.requests.map(\.method.value) == ["POST", "POST"], "the method is upper-cased, POST by default")
    #expect(app.requests.map(\.encoding) == [.json, .form])
    #expect(app.continueParameters != nil && app.continueURL == nil)
  }

  @Test func problemsAreLocated() {
    let input = MarkedText(
      """
      tenants:
        op:
          kind: oidc
          issuer: https://op.example.com
          login_pages:
            1️⃣logn: {}
            login: { form: 2️⃣"div.login", 3️⃣field: {} }
            app:
              requests:
                - method: 4️⃣DELETE
                  url: /a
                - 5️⃣url: /b
                  json: {}
                  form: {}
                - 6️⃣method: POST
              continue: 7️⃣{ parameters: {}, url: /x }
      """)
    let found = parse(input).diagnostics
    expectDiagnostic(found, at: input["1️⃣"], "unknown key 'logn' in login_pages", hint: "did you mean 'login'?")
    expectDiagnostic(
      found, at: input["2️⃣"], "'div.login' is not a form selector authflow understands",
      hint: "use '#ID' (the form's id) or '[action*=TEXT]' (text in its action)")
    expectDiagnostic(
      found, at: input["3️⃣"], "unknown key 'field' in login_pages.login", hint: "did you mean 'fields'?")
    expectDiagnostic(
      found, at: input["4️⃣"], "unknown method 'DELETE' for a login request", hint: "use one of GET, POST, PUT, PATCH")
    expectDiagnostic(
      found, at: input["5️⃣"], "a login request has both 'json' and 'form'",
      hint: "keep the one the login page's script sends (its Content-Type)")
    expectDiagnostic(found, at: input["6️⃣"], "login_pages.app needs 'url'", hint: "add 'url: /api/login'")
    expectDiagnostic(
      found, at: input["7️⃣"], "login_pages.app.continue takes exactly one of 'parameters' and 'url'",
      hint:
        "'parameters' repeats the authorization request with them added; 'url' goes to a URL (e.g. from the response)")
    #expect(found.count == 7, "\(found.map(\.description))")
  }

  @Test func anAppNeedsItsRequestsAndContinuationWithinBounds() {
    let input = MarkedText(
      """
      tenants:
        op:
          kind: oidc
          issuer: https://op.example.com
          login_pages:
            app:
              1️⃣page: /login.html
        other:
          kind: oidc
          issuer: https://op.example.com
          login_pages:
            app:
              requests: 2️⃣[{url: /1}, {url: /2}, {url: /3}, {url: /4}, {url: /5}, {url: /6}, {url: /7}, {url: /8}, {url: /9}]
              continue: { url: /done }
      """)
    let found = parse(input).diagnostics
    let requests = expectDiagnostic(found, at: input["1️⃣"], "login_pages.app needs 'requests'")
    #expect(requests?.hint?.contains("requests: [{ method: POST") == true)
    expectDiagnostic(found, at: input["1️⃣"], "login_pages.app needs 'continue'")
    expectDiagnostic(
      found, at: input["2️⃣"], "login_pages.app has 9 requests; it takes 1 to 8",
      hint: "list the requests the login page's script sends, in order")
    #expect(found.count == 3, "\(found.map(\.description))")
  }
}

/// `schemas/authflow.schema.json` and the parser agree on `login_pages`: the same keys, and the same
/// verdict on a valid and an invalid profile (Python's `jsonschema`).
@Suite struct LoginPagesSchemaTests {
  static func properties(_ value: Value?) -> Set<String> {
    Set(value?.member("properties")?.objectValue?.keys ?? [:].keys)
  }

  @Test func schemaKeysMatchTheParser() throws {
    let tenant = ProjectSchema.document.member("properties")?.member("tenants")?.member("additionalProperties")
    #expect(Self.properties(tenant) == Set(ProjectConfigParser.tenantKeys))
    let pages = tenant?.member("properties")?.member("login_pages")
    #expect(Self.properties(pages) == Set(LoginPagesProfile.keys))
    #expect(Self.properties(pages?.member("properties")?.member("login")) == Set(LoginPagesProfile.formKeys))
    let app = pages?.member("properties")?.member("app")
    #expect(Self.properties(app) == Set(LoginPagesProfile.appKeys))
    let request = app?.member("properties")?.member("requests")?.member("items")
    #expect(Self.properties(request) == Set(LoginPagesProfile.requestKeys))
    #expect(Self.properties(app?.member("properties")?.member("continue")) == Set(LoginPagesProfile.continueKeys))
  }

  @Test func schemaAndParserAgreeOnProfiles() throws {
    let valid = """
      tenants:
        op:
          kind: oidc
          issuer: https://op.example.com
          login_pages:
            login: { form: "#signin", fields: { email: sub }, submit: Go }
            app:
              page: /login.html
              requests: [{ method: POST, url: /api/auth/, json: { username: "${{ login.email }}" } }]
              continue: { parameters: { continue: "${{ response.body.continue }}" } }
      """
    let invalid = [
      valid.replacingOccurrences(of: "\"#signin\"", with: "\"div.login\""),
      valid.replacingOccurrences(of: "method: POST", with: "method: DELETE"),
      valid.replacingOccurrences(of: "continue: { parameters:", with: "continue: { url: /x, parameters:"),
      valid.replacingOccurrences(of: "json:", with: "form: { a: b }, json:"),
      valid.replacingOccurrences(of: "page: /login.html", with: "pages: /login.html"),
    ]
    let directory = FileManager.default.temporaryDirectory.appending(path: "authflow-login-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appending(path: "authflow.schema.json")
    try ProjectSchema.generate().write(to: schema, atomically: true, encoding: .utf8)
    var files: [String] = []
    for (index, text) in ([valid] + invalid).enumerated() {
      let file = directory.appending(path: "case\(index).yaml")
      try text.write(to: file, atomically: true, encoding: .utf8)
      files.append(file.path)
      let diagnostics = ProjectConfigParser().parse(text, file: "case\(index).yaml").diagnostics
      #expect(diagnostics.isEmpty == (index == 0), "case \(index): \(diagnostics.map(\.description))")
    }
    let python = Python.run(Python.validateYAMLScript, arguments: [schema.path] + files)
    #expect(python.status == 0, "python3 with jsonschema and PyYAML is required for this test: \(python.output)")
    let verdicts = python.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map {
      $0.split(separator: " ").last ?? ""
    }
    #expect(verdicts == ["valid"] + Array(repeating: "invalid", count: invalid.count), "\(python.output)")
  }
}
