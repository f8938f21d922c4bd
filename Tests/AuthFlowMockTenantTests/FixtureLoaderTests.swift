import AuthFlowCore
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
    let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
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

@Suite struct TenantSchemaTests {
  @Test func schemaKeysMatchTheLoader() throws {
    let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let data = try Data(contentsOf: repository.appending(path: "schemas/tenant.schema.json"))
    let schema = try #require(try Value(json: data).objectValue)
    func keys(_ object: Value?) -> Set<String> {
      Set(object?.objectValue?["properties"]?.objectValue?.keys ?? [:].keys)
    }
    let top = schema["properties"]?.objectValue
    let definitions = schema["$defs"]?.objectValue
    #expect(Set(schema["properties"]?.objectValue?.keys ?? [:].keys) == Set(FixtureLoader.topKeys))
    #expect(keys(top?["tenant"]) == Set(FixtureLoader.tenantKeys))
    #expect(keys(definitions?["client"]) == Set(FixtureLoader.clientKeys))
    #expect(keys(definitions?["user"]) == Set(FixtureLoader.userKeys))
  }
}
