import AuthFlowCore
import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowMockTenant

@Suite struct FixtureLoaderTests {
  @Test func defaultFixtureLoadsClean() throws {
    let result = FixtureLoader.loadDefault()
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let fixture = try #require(result.fixture)
    #expect(fixture.clients["native"]?.clientSecret == nil)
    #expect(fixture.clients["web"]?.isConfidential == true)
    #expect(fixture.clients["m2m"]?.grantTypes == ["client_credentials"])
    #expect(fixture.users["bob"]?.mfa.first?.kind == .totp)
    #expect(fixture.users["blocked"]?.blocked == true)
    #expect(fixture.organizations.first?.members == ["alice"])
    #expect(fixture.apis.contains { $0.kind == .myAccount })
  }

  /// One source: `tenants/mock.yaml` is what `authflow mock --print-fixture` prints from the bundled
  /// resource, byte for byte, and loads to the same fixture.
  @Test func tenantsMockYAMLIsGeneratedFromTheBuiltInFixture() throws {
    let repository = MockHarness.repository
    let checkedIn = try String(contentsOf: repository.appending(path: "tenants/mock.yaml"), encoding: .utf8)
    let bundled = try String(
      contentsOf: repository.appending(path: "Sources/AuthFlowMockTenant/Resources/mock.yaml"), encoding: .utf8)
    #expect(BuiltInFixture.text == bundled)
    #expect(
      checkedIn == BuiltInFixture.example,
      "tenants/mock.yaml is out of date: run `swift run authflow mock --print-fixture > tenants/mock.yaml`")
    let example = try #require(FixtureLoader.load(text: checkedIn, file: "tenants/mock.yaml").fixture)
    let builtIn = try #require(FixtureLoader.loadDefault().fixture)
    #expect(example.clients.keys.sorted() == builtIn.clients.keys.sorted())
    #expect(example.users.keys.sorted() == builtIn.users.keys.sorted())
  }

  @Test func unknownKeyIsLocatedWithDidYouMean() throws {
    let text = """
      clients:
        native:
          client_id: x
          type: native
          calbacks: [https://a]
      """
    let result = FixtureLoader.load(text: text, file: "t.yaml")
    #expect(result.fixture == nil)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.description == "t.yaml:5:5: error: unknown key 'calbacks' in client 'native'")
    #expect(diagnostic.hint == "did you mean 'callbacks'?")
  }

  @Test func wrongTypesAndChoicesAreReported() throws {
    let text = """
      tenant:
        refresh_token_rotation: sometimes
      clients:
        web:
          client_id: w
          type: regulr
      users:
        eve:
          connection: nowhere
      """
    let messages = FixtureLoader.load(text: text, file: "t.yaml").diagnostics.map(\.description)
    #expect(messages.contains("t.yaml:2:27: error: refresh_token_rotation must be true or false, found string"))
    #expect(messages.contains("t.yaml:6:11: error: 'regulr' is not a valid client type"))
    #expect(messages.contains { $0.hasPrefix("t.yaml:9:") && $0.contains("unknown connection 'nowhere'") })
  }

  @Test func loginPageStyleIsOptInAndChecked() throws {
    #expect(try #require(FixtureLoader.loadDefault().fixture).settings.loginPage == .universalLogin)
    let field = FixtureLoader.load(text: "tenant:\n  login_page: { style: single_field, field: sub }\n", file: "t.yaml")
    #expect(field.fixture?.settings.loginPage == .singleField("sub"))
    let app = FixtureLoader.load(text: "tenant:\n  login_page: { style: app }\n", file: "t.yaml")
    #expect(app.fixture?.settings.loginPage == .app)
    let wrong = FixtureLoader.load(text: "tenant:\n  login_page: { style: ap }\n", file: "t.yaml")
    #expect(wrong.fixture == nil)
    let diagnostic = try #require(wrong.diagnostics.first)
    #expect(diagnostic.message == "unknown login_page style 'ap'")
    #expect(diagnostic.hint == "did you mean 'app'?")
    #expect(diagnostic.location?.line == 2 && diagnostic.location?.column == 24)
    let badField = FixtureLoader.load(
      text: "tenant:\n  login_page: { style: single_field, field: \"a b\" }\n", file: "t.yaml")
    #expect(badField.diagnostics.first?.message == "login_page field 'a b' is not a form field name")
  }

  @Test func yamlSyntaxErrorsAreLocated() {
    let result = FixtureLoader.load(text: "clients: [unclosed\n", file: "t.yaml")
    #expect(result.fixture == nil)
    #expect(result.diagnostics.first?.location?.file == "t.yaml")
  }
}

/// `schemas/tenant.schema.json` is generated from the loader's declarations (``FixtureSchema``):
/// `authflow schema tenant --output schemas/tenant.schema.json` writes it.
@Suite struct TenantSchemaTests {
  static let repository = MockHarness.repository

  @Test func theCheckedInSchemaIsTheGeneratedOne() throws {
    let checkedIn = try String(
      contentsOf: Self.repository.appending(path: "schemas/tenant.schema.json"), encoding: .utf8)
    #expect(
      checkedIn == FixtureSchema.generate(),
      "schemas/tenant.schema.json is out of date: run `swift run authflow schema tenant --output schemas/tenant.schema.json`"
    )
  }

  static let cases: [(String, Bool)] = [
    ("tenant: { password_history_size: 3, rate_limit_window: 3600 }", true),
    ("tenant: { password_history_size: 25 }", false),
    ("tenant: { bot_detektion: true }", false),
    ("clients: { n: { client_id: n, type: native, callbacks: 'https://a.example https://b.example' } }", true),
    ("clients: { w: { client_id: w, type: regular } }", false),
    ("claim_rules: [ { claim: x } ]", false),
    ("organizations: [ { id: acme, name: acme } ]", false),
  ]

  /// The generated schema and the loader agree: the built-in fixture and each valid case pass both,
  /// each invalid case fails both (checked with Python's `jsonschema`).
  @Test func theSchemaAndTheLoaderAgree() throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "authflow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appending(path: "tenant.schema.json")
    try FixtureSchema.generate().write(to: schema, atomically: true, encoding: .utf8)
    var files = [Self.repository.appending(path: "tenants/mock.yaml").path]
    for (index, (text, _)) in Self.cases.enumerated() {
      let file = directory.appending(path: "case\(index).yaml")
      try text.write(to: file, atomically: true, encoding: .utf8)
      files.append(file.path)
    }
    let python = Python.run(Python.validateYAMLScript, arguments: [schema.path] + files)
    #expect(python.status == 0, "python3 with jsonschema and PyYAML is required for this test: \(python.output)")
    let verdicts = python.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { $0.hasSuffix(" valid") }
    #expect(verdicts.count == Self.cases.count + 1 && verdicts.first == true, "\(python.output)")
    for (index, (text, valid)) in Self.cases.enumerated() {
      #expect(verdicts.count > index + 1 && verdicts[index + 1] == valid, "schema on \(text): \(python.output)")
      let loaded = FixtureLoader.load(text: text, file: "t.yaml")
      #expect(loaded.diagnostics.hasErrors == !valid, "loader on \(text): \(loaded.diagnostics.map(\.description))")
    }
  }

  /// The loader accepts exactly the declared keys: every one of the tenant settings loads, and a key
  /// the schema does not declare is refused with the declared ones as suggestions.
  @Test func theLoaderAcceptsTheDeclaredKeysOnly() throws {
    let document = try #require(FixtureSchema.document.objectValue)
    let tenant = try #require(document["properties"]?.member("tenant")?.member("properties")?.objectValue)
    #expect(Set(tenant.keys) == Set(FixtureSchema.tenant.names))
    let declared = FixtureLoader.load(
      text: "tenant:\n  bot_detection: true\n  password_history_size: 3\n", file: "t.yaml")
    #expect(declared.diagnostics.isEmpty, "\(declared.diagnostics)")
    let undeclared = FixtureLoader.load(text: "tenant:\n  bot_detektion: true\n", file: "t.yaml")
    #expect(undeclared.diagnostics.first?.hint == "did you mean 'bot_detection'?")
    let outOfRange = FixtureLoader.load(text: "tenant:\n  password_history_size: 25\n", file: "t.yaml")
    #expect(outOfRange.fixture == nil)
    #expect(tenant["password_history_size"]?.member("maximum") == .int(FixtureSchema.passwordHistoryRange.upperBound))
  }
}
