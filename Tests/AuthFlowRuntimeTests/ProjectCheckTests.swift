import AuthFlowCore
import AuthFlowMockHosting
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// Scenarios are checked against `authflow.yaml` by `validate` and `run`: the bundled ones are
/// clean, a typo is not, and every capability the runtime knows is in the documented vocabulary.
@Suite struct ProjectCheckTests {
  @Test func everyRuntimeCapabilityIsInTheVocabulary() {
    #expect(Capability.mock.subtracting(CapabilityVocabulary.builtInNames).isEmpty)
    #expect(CapabilityVocabulary.builtIn.map(\.name) == CapabilityVocabulary.builtIn.map(\.name).sorted())
  }

  /// The vocabulary's one page is the generated docs/capabilities.md (VocabularyDocsTests keeps it
  /// current); docs/tenants.md links to it and keeps no hand-written copy of its rows.
  @Test func theVocabularyIsDocumentedOnceInTheGeneratedPage() throws {
    let docs = BundledScenarioTests.root.appendingPathComponent("docs")
    let tenants = try String(contentsOf: docs.appendingPathComponent("tenants.md"), encoding: .utf8)
    let capabilities = try String(contentsOf: docs.appendingPathComponent("capabilities.md"), encoding: .utf8)
    #expect(tenants.contains("[Capabilities](capabilities.md)"))
    for (name, meaning) in CapabilityVocabulary.builtIn {
      #expect(capabilities.contains("| `\(name)` | \(meaning) |"), "docs/capabilities.md does not list '\(name)'")
      #expect(!tenants.contains("| `\(name)` | \(meaning) |"), "docs/tenants.md keeps a copy of the row of '\(name)'")
    }
  }

  @Test func bundledScenariosAreCleanAgainstTheBundledProject() async throws {
    let loaded = await Pipeline.load(BundledScenarioTests.scenarioFiles)
    let file = BundledScenarioTests.root.appendingPathComponent("authflow.yaml").path
    let project = Pipeline.loadProject(explicit: file, near: [])
    #expect(!project.diagnostics.hasErrors)
    let found = Pipeline.check(loaded.scenarios, against: project.config, embedded: MockTenantHost())
    #expect(found.isEmpty, "\(found.map(\.description))")
  }

  @Test func mockFixtureClientsCountAndTyposDoNot() throws {
    let scenario = try ScenarioHarness.parse("scenario: x\nclient: nativ\nsteps:\n  - wait: 1ms\n")
    let found = Pipeline.check([scenario], against: .embedded, embedded: MockTenantHost())
    #expect(found.count == 1)
    #expect(found.first?.message.hasPrefix("no tenant defines a client profile 'nativ'") == true)
    #expect(found.first?.hint == "did you mean 'native'?")
    let fine = try ScenarioHarness.parse("scenario: x\nclient: native\nsteps:\n  - wait: 1ms\n")
    #expect(Pipeline.check([fine], against: .embedded, embedded: MockTenantHost()).isEmpty)
  }

  @Test func aStepsClientIsCheckedLikeTheScenarios() throws {
    let scenario = try ScenarioHarness.parse(
      "scenario: x\nsteps:\n  - wait: 1ms\n    client: wbe\ncleanup:\n  - wait: 1ms\n    client: web\n")
    let found = Pipeline.check([scenario], against: .embedded, embedded: MockTenantHost())
    #expect(found.map(\.message).count == 1, "\(found.map(\.message))")
    #expect(found.first?.message.hasPrefix("no tenant defines a client profile 'wbe'") == true)
    #expect(found.first?.hint == "did you mean 'web'?")
    #expect(found.first?.location?.line == 4)
  }

  /// `tenant.users.NAME` and `tenant.clients.NAME` read profiles that must exist: a typo would be
  /// null, and `not_equals` against it would hold whatever the tenant answers.
  @Test func profilesReadInExpressionsMustExist() throws {
    let scenario = try ScenarioHarness.parse(
      """
      scenario: x
      vars:
        who: ${{ tenant.users.bobb.email }}
      steps:
        - id: s
          http: { url: "${{ tenant.endpoints.token }}" }
          expect:
            body.aud: { not_equals: "${{ tenant.clients.nativ.client_id }}" }
            body.sub: { not_equals: "${{ tenant.users.alice.user_id }} ${{ tenant.clients.web.client_id }}" }

      """)
    let found = Pipeline.check([scenario], against: .embedded, embedded: MockTenantHost())
    #expect(found.count == 2, "\(found.map(\.message))")
    let user = found.first { $0.message.hasPrefix("no tenant defines a user 'bobb'") }
    #expect(user?.hint == "did you mean 'bob'?")
    #expect(user?.location?.line == 3)
    let client = found.first { $0.message.hasPrefix("no tenant defines a client profile 'nativ'") }
    #expect(client?.hint == "did you mean 'native'?")
    #expect(client?.location?.line == 8)
  }

  /// A pinned scenario is checked against its tenant's profiles only: `authflow.yaml`'s users
  /// and, for a mock tenant, its fixture's.
  @Test func aPinnedScenariosProfilesAreItsTenants() async throws {
    try await Scoped.directory(prefix: "profiles") { directory in
      try Self.checkPinnedProfiles(in: directory)
    }
  }

  static func checkPinnedProfiles(in directory: URL) throws {
    let file = directory.appendingPathComponent("authflow.yaml").path
    try """
    tenants:
      mock: { kind: mock, users: { carol: { email: carol@example.com } } }
      real:
        kind: oidc
        issuer: https://idp.example.com/
        clients: { app: { client_id: x } }
        users: { dave: { email: dave@example.com } }
    """.write(toFile: file, atomically: true, encoding: .utf8)
    let project = Pipeline.loadProject(explicit: file, near: [])
    #expect(!project.diagnostics.hasErrors, "\(project.diagnostics.map(\.message))")
    func check(_ text: String) throws -> [String] {
      let scenario = try ScenarioHarness.parse(text)
      return Pipeline.check([scenario], against: project.config, embedded: MockTenantHost()).map(\.message)
    }
    let pinned = "scenario: x\ntenant: real\nsteps:\n  - wait: 1ms\n    if: ${{ tenant.users.%@.email == 'x' }}\n"
    #expect(try check(pinned.replacingOccurrences(of: "%@", with: "dave")).isEmpty)
    let alice = try check(pinned.replacingOccurrences(of: "%@", with: "alice"))
    #expect(alice == ["tenant 'real' has no user 'alice' (it has: dave)"])
    let unpinned = "scenario: x\nsteps:\n  - wait: 1ms\n    if: ${{ tenant.users.%@.email == 'x' }}\n"
    for known in ["alice", "carol", "dave"] {
      #expect(try check(unpinned.replacingOccurrences(of: "%@", with: known)).isEmpty, "\(known)")
    }
  }

  /// A read written to cope with the profile's absence — the left of `||`, the first argument of
  /// `default`, a comparison with `null` — means its `null`: a portable pack may use a profile
  /// some projects lack (conformance-pack/oidcc-max-age-1.yaml: `tenant.users.solo || tenant.users.alice`).
  @Test func aReadThatCopesWithAbsenceIsNotChecked() throws {
    let scenario = try ScenarioHarness.parse(
      """
      scenario: x
      vars:
        a: ${{ tenant.users.solo || tenant.users.alice }}
        b: ${{ default(tenant.clients.spa.client_id, 'none') }}
        c: ${{ tenant.users.carol == null || null != tenant.users.dave.email }}
        d: ${{ tenant.users.alice || tenant.users.erin }}
      steps:
        - wait: 1ms
      """)
    let found = Pipeline.check([scenario], against: .embedded, embedded: MockTenantHost()).map(\.message)
    #expect(found == ["no tenant defines a user 'erin' (known: alice, blocked, bob)"])
  }

  /// A field that no user (or client) profile of any candidate tenant has — written in
  /// `authflow.yaml` or in a mock's fixture — is a typo: it would read as null for every profile.
  /// A mock whose fixture is named by an expression leaves its profiles unknown, and unchecked.
  @Test func profileFieldsNoProfileHasAreErrors() async throws {
    let scenario = try ScenarioHarness.parse(
      """
      scenario: x
      steps:
        - wait: 1ms
          if: ${{ tenant.users.bob.emial == 'x' || tenant.clients.web.clientid == 'y' || tenant.users.alice.nickname == 'z' || tenant.users.carol.badge == 1 || tenant.users.alice.role == 'r' }}
      """)
    try await Scoped.directory(prefix: "fields") { directory in
      let file = directory.appendingPathComponent("authflow.yaml").path
      try """
      default_tenant: mock
      tenants:
        mock: { kind: mock, users: { carol: { email: carol@example.com, badge: 7 } } }
      """.write(toFile: file, atomically: true, encoding: .utf8)
      let project = Pipeline.loadProject(explicit: file, near: [])
      let found = Pipeline.check([scenario], against: project.config, embedded: MockTenantHost()).map(\.message)
      #expect(found.count == 3, "\(found)")
      #expect(found.contains { $0.hasPrefix("no user profile has a field 'emial' (fields: ") })
      #expect(found.contains { $0.hasPrefix("no client profile has a field 'clientid' (fields: ") })
      #expect(found.contains { $0.hasPrefix("no user profile has a field 'role' (fields: ") })

      try """
      default_tenant: mock
      tenants:
        mock: { kind: mock, fixture: "${{ env.FIXTURE }}" }
      """.write(toFile: file, atomically: true, encoding: .utf8)
      let open = Pipeline.loadProject(explicit: file, near: [])
      let unchecked = Pipeline.check([scenario], against: open.config, embedded: MockTenantHost()).map(\.message)
      #expect(unchecked.isEmpty, "\(unchecked)")
    }
  }
}

/// `web_auth`'s `login:` keys are checked before anything runs: a key no login page takes fills
/// nothing, and the page would only say "Please enter your email and password".
@Suite struct LoginValueCheckTests {
  static func check(_ steps: String, project yaml: String? = nil) throws -> [Diagnostic] {
    let scenario = try ScenarioHarness.parse("scenario: x\nclient: native\nsteps:\n" + steps)
    let project =
      try yaml.map { text in
        let (config, diagnostics) = ProjectConfigParser().parse(text, file: "authflow.yaml")
        #expect(!diagnostics.hasErrors, "\(diagnostics.map(\.description))")
        return try #require(config)
      } ?? .embedded
    return Pipeline.check([scenario], against: project, embedded: MockTenantHost())
  }

  @Test func aMisspeltLoginKeyIsRefusedWithDidYouMean() throws {
    let found = try Self.check("  - web_auth: { login: { username: a@b.c, pass: x } }\n")
    #expect(found.count == 1, "\(found.map(\.description))")
    let diagnostic = try #require(found.first)
    #expect(diagnostic.message.hasPrefix("web_auth.login has no value 'pass'"), "\(diagnostic.message)")
    #expect(diagnostic.hint == "did you mean 'password'?")
    #expect(diagnostic.location?.line == 4)
  }

  @Test func signupAndPasswordlessKeysAreCheckedToo() throws {
    let found = try Self.check(
      "  - web_auth: { signup: { emial: a@b.c, password: x } }\n"
        + "  - web_auth: { connection: email, passwordless: { email: a@b.c, cod: '1' } }\n")
    #expect(found.map(\.hint) == ["did you mean 'email'?", "did you mean 'code'?"], "\(found.map(\.description))")
  }

  @Test func theStandardKeysAndExpressionsPass() throws {
    let found = try Self.check(
      "  - web_auth: { login: { email: a, username: b, password: c, phone_number: d } }\n"
        + "  - web_auth: { login: \"${{ tenant.users.alice }}\" }\n"
        + "  - web_auth: { signup: { email: a, password: b, name: c, given_name: d } }\n")
    #expect(found.isEmpty, "\(found.map(\.description))")
  }

  /// A tenant's `forms`, `login_pages` fields and app-login templates name more values.
  @Test func theKeysATenantNamesPass() throws {
    let project = """
      tenants:
        mock: { kind: mock }
        op:
          kind: oidc
          issuer: https://op.example.com
          forms: { captcha_answer: captcha }
          login_pages:
            login: { fields: { email: sub, otp_seed: seed } }
            app:
              requests:
                - url: /api/login
                  json: { user: "${{ login.email }}", pin: "${{ login.pin }}" }
              continue: { url: /done }
      """
    let found = try Self.check(
      "  - web_auth: { login: { email: a, password: b, captcha_answer: c, otp_seed: d, pin: e } }\n"
        + "  - web_auth: { login: { email: a, pin_code: b } }\n",
      project: project)
    #expect(found.count == 1, "\(found.map(\.description))")
    #expect(found.first?.message.hasPrefix("web_auth.login has no value 'pin_code'") == true)
    #expect(found.first?.hint == "did you mean 'pin'?")
    // A scenario pinned to the mock gets only the mock's names.
    let pinned = try ScenarioHarness.parse(
      "scenario: x\ntenant: mock\nclient: native\nsteps:\n  - web_auth: { login: { email: a, pin: b } }\n")
    let (config, _) = ProjectConfigParser().parse(project, file: "authflow.yaml")
    let onMock = Pipeline.check([pinned], against: try #require(config), embedded: MockTenantHost())
    #expect(onMock.map(\.message).contains { $0.hasPrefix("web_auth.login has no value 'pin'") }, "\(onMock)")
  }
}
