import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// The conformance pack (`conformance-pack/`, a folder per OpenID Foundation test plan): valid for
/// the parser and for jsonschema, each module citing the clauses it checks, and on the embedded mock
/// each module gets the verdict `conformance/expected-verdicts.txt` gives it (the verdict the OIDF
/// suite would give Auth0, which the mock answers as).
@Suite("Conformance pack")
struct ConformancePackTests {
  static let directory = BundledScenarioTests.root.appendingPathComponent("conformance-pack")

  static var files: [URL] {
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory.appendingPathComponent($0) }
  }

  /// The Basic OP plan's 38 modules, by the suite's testName (OIDCCBasicTestPlan).
  static let basicPlan = [
    "oidcc-server", "oidcc-response-type-missing", "oidcc-idtoken-signature", "oidcc-idtoken-unsigned",
    "oidcc-userinfo-get", "oidcc-userinfo-post-header", "oidcc-userinfo-post-body",
    "oidcc-ensure-request-without-nonce-succeeds-for-code-flow", "oidcc-scope-profile", "oidcc-scope-email",
    "oidcc-scope-address", "oidcc-scope-phone", "oidcc-scope-all", "oidcc-alternate-happy-flow", "oidcc-display-page",
    "oidcc-display-popup", "oidcc-prompt-login", "oidcc-prompt-none-not-logged-in", "oidcc-prompt-none-logged-in",
    "oidcc-max-age-1", "oidcc-max-age-10000", "oidcc-ensure-request-with-unknown-parameter-succeeds",
    "oidcc-id-token-hint", "oidcc-login-hint", "oidcc-ui-locales", "oidcc-claims-locales",
    "oidcc-ensure-request-with-acr-values-succeeds", "oidcc-codereuse", "oidcc-codereuse-30seconds",
    "oidcc-ensure-registered-redirect-uri", "oidcc-ensure-post-request-succeeds", "oidcc-server-client-secret-post",
    "oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported",
    "oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported", "oidcc-claims-essential",
    "oidcc-ensure-request-object-with-redirect-uri", "oidcc-refresh-token",
    "oidcc-ensure-request-with-valid-pkce-succeeds",
  ]

  @Test(
    "the basic and form-post folders hold exactly the Basic OP plan's 38 modules, tagged with their plan",
    arguments: [
      ("basic", "oidcc-basic-certification-test-plan"), ("form-post", "oidcc-formpost-basic-certification-test-plan"),
    ])
  func planIsComplete(folder: String, plan: String) async throws {
    let files = Self.files.filter { $0.deletingLastPathComponent().lastPathComponent == folder }
    #expect(Set(files.map { $0.deletingPathExtension().lastPathComponent }) == Set(Self.basicPlan))
    #expect(Self.basicPlan.count == 38)
    let output = await Pipeline.load(files.map(\.path))
    for scenario in output.scenarios {
      #expect(scenario.tags.map(\.value).contains("plan:" + plan), "\(scenario.file): tagged with its plan")
    }
    // docs/conformance.md lists every module of the pack.
    let docs = try String(
      contentsOf: BundledScenarioTests.root.appendingPathComponent("docs/conformance.md"), encoding: .utf8)
    for module in Self.basicPlan { #expect(docs.contains("### `\(module)`"), "docs/conformance.md: \(module)") }
  }

  @Test("every module is valid for the parser and jsonschema, tagged, and cites the standard")
  func valid() async throws {
    let files = Self.files
    #expect(files.count >= 30)
    let output = await Pipeline.load(files.map(\.path))
    #expect(!output.diagnostics.hasErrors, "\(output.diagnostics.map(\.description))")
    let schema = BundledScenarioTests.root.appendingPathComponent("schemas/scenario.schema.json").path
    let python = Python.run(Python.validateYAMLScript, arguments: [schema] + files.map(\.path))
    #expect(python.status == 0, "\(python.output)")
    #expect(!python.output.contains(" invalid"), "\(python.output)")
    for scenario in output.scenarios {
      let name = (scenario.file as NSString).lastPathComponent
      #expect(scenario.tags.map(\.value).contains("oidcc"), "\(name)")
      #expect(scenario.description?.contains("§") == true, "\(name) cites no section")
      let module = String(name.dropLast(".yaml".count))
      #expect(scenario.title.value.hasPrefix(module + ":"), "\(name): the title starts with the module name")
    }
  }

  /// The Implicit OP plan's modules (OIDCCImplicitTestPlan): 27 run with `id_token` and with
  /// `id_token token`, 4 with `id_token token` only.
  static let implicitPlan: [String: [String]] = {
    let both = [
      "oidcc-server", "oidcc-idtoken-signature", "oidcc-ensure-request-without-nonce-fails", "oidcc-scope-profile",
      "oidcc-scope-email", "oidcc-scope-address", "oidcc-scope-phone", "oidcc-scope-all", "oidcc-alternate-happy-flow",
      "oidcc-display-page", "oidcc-display-popup", "oidcc-prompt-login", "oidcc-prompt-none-not-logged-in",
      "oidcc-prompt-none-logged-in", "oidcc-max-age-1", "oidcc-max-age-10000",
      "oidcc-ensure-request-with-unknown-parameter-succeeds", "oidcc-id-token-hint", "oidcc-login-hint",
      "oidcc-ui-locales", "oidcc-claims-locales", "oidcc-ensure-request-with-acr-values-succeeds",
      "oidcc-ensure-registered-redirect-uri",
      "oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported",
      "oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported",
      "oidcc-ensure-request-object-with-redirect-uri", "oidcc-claims-essential",
    ]
    let tokenOnly = [
      "oidcc-userinfo-get", "oidcc-userinfo-post-header", "oidcc-userinfo-post-body", "oidcc-response-type-missing",
    ]
    return Dictionary(
      uniqueKeysWithValues: both.map { ($0, ["id_token", "id_token token"]) }
        + tokenOnly.map { ($0, ["id_token token"]) })
  }()

  /// The Hybrid OP plan's modules (OIDCCHybridTestPlan) by the response types it runs each with.
  static let hybridPlan: [String: [String]] = {
    let all = ["code id_token", "code token", "code id_token token"]
    var plan = Dictionary(
      uniqueKeysWithValues: Self.basicPlan.filter {
        ![
          "oidcc-idtoken-unsigned", "oidcc-ensure-post-request-succeeds", "oidcc-response-type-missing",
          "oidcc-alternate-happy-flow", "oidcc-ensure-request-with-valid-pkce-succeeds",
          "oidcc-ensure-request-without-nonce-succeeds-for-code-flow",
        ].contains($0)
      }.map { ($0, all) })
    for module in [
      "oidcc-response-type-missing", "oidcc-alternate-happy-flow", "oidcc-ensure-request-with-valid-pkce-succeeds",
    ] {
      plan[module] = ["code id_token"]
    }
    plan["oidcc-ensure-request-without-nonce-fails"] = ["code id_token", "code id_token token"]
    plan["oidcc-ensure-request-without-nonce-succeeds-for-code-flow"] = ["code token"]
    return plan
  }()

  /// A plan whose modules run once per response type: its folder, its plan, its modules by the
  /// response types each runs with, and its section of docs/conformance.md.
  struct MatrixPlan: Sendable, CustomTestStringConvertible {
    var folder: String
    var plan: String
    var modules: [String: [String]]
    var count: Int
    var docsSection: String
    var testDescription: String { folder }
  }

  static let matrixPlans: [MatrixPlan] = [
    MatrixPlan(
      folder: "implicit", plan: "oidcc-implicit-certification-test-plan", modules: implicitPlan, count: 31,
      docsSection: "## The Implicit OP plan"),
    MatrixPlan(
      folder: "form-post-implicit", plan: "oidcc-formpost-implicit-certification-test-plan", modules: implicitPlan,
      count: 31, docsSection: "## The Implicit OP plan"),
    MatrixPlan(
      folder: "hybrid", plan: "oidcc-hybrid-certification-test-plan", modules: hybridPlan, count: 37,
      docsSection: "## The Hybrid OP plan"),
    MatrixPlan(
      folder: "form-post-hybrid", plan: "oidcc-formpost-hybrid-certification-test-plan", modules: hybridPlan,
      count: 37, docsSection: "## The Hybrid OP plan"),
  ]

  @Test(
    "the Implicit and Hybrid plans' folders hold every module, each with the response types the plan runs it with",
    arguments: matrixPlans)
  func matrixPlanIsComplete(_ matrixPlan: MatrixPlan) async throws {
    let files = Self.files.filter { $0.deletingLastPathComponent().lastPathComponent == matrixPlan.folder }
    #expect(Set(files.map { $0.deletingPathExtension().lastPathComponent }) == Set(matrixPlan.modules.keys))
    #expect(matrixPlan.modules.count == matrixPlan.count)
    let output = await Pipeline.load(files.map(\.path))
    #expect(!output.diagnostics.hasErrors)
    for scenario in output.scenarios {
      let module = ((scenario.file as NSString).lastPathComponent as NSString).deletingPathExtension
      #expect(scenario.tags.map(\.value).contains("plan:" + matrixPlan.plan), "\(module): its plan")
      #expect(scenario.matrix.map(\.name.value) == ["response_type"], "\(module): one matrix axis, response_type")
      let values = scenario.instances.compactMap { $0.matrix.first?.label }
      #expect(values == matrixPlan.modules[module], "\(module): \(values)")
    }
    let docs = try String(
      contentsOf: BundledScenarioTests.root.appendingPathComponent("docs/conformance.md"), encoding: .utf8)
    let section = try #require(docs.range(of: matrixPlan.docsSection)).upperBound
    for module in matrixPlan.modules.keys {
      #expect(docs[section...].contains("### `\(module)`"), "docs/conformance.md: \(module)")
    }
  }

  @Test("the rp-logout folder holds the RP-Initiated Logout OP plan's 11 modules, tagged with the plan")
  func rpLogoutPlanIsComplete() async throws {
    let files = Self.files.filter { $0.deletingLastPathComponent().lastPathComponent == "rp-logout" }
    let expected: Set = [
      "oidcc-rp-initiated-logout-discovery-endpoint-verification", "oidcc-rp-initiated-logout",
      "oidcc-rp-initiated-logout-bad-post-logout-redirect-uri", "oidcc-rp-initiated-logout-modified-id-token-hint",
      "oidcc-rp-initiated-logout-no-id-token-hint", "oidcc-rp-initiated-logout-no-params",
      "oidcc-rp-initiated-logout-no-post-logout-redirect-uri", "oidcc-rp-initiated-logout-no-state",
      "oidcc-rp-initiated-logout-only-state", "oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri",
      "oidcc-rp-initiated-logout-bad-id-token-hint",
    ]
    #expect(Set(files.map { $0.deletingPathExtension().lastPathComponent }) == expected)
    let output = await Pipeline.load(files.map(\.path))
    for scenario in output.scenarios {
      #expect(
        scenario.tags.map(\.value).contains("plan:oidcc-rp-initiated-logout-certification-test-plan"),
        "\(scenario.file)")
    }
  }

  @Test(
    "form-post/, form-post-implicit/ and form-post-hybrid/ are what conformance-pack/tools/derive-form-post.py derives")
  func formPostIsDerived() throws {
    let script = try String(
      contentsOf: Self.directory.appendingPathComponent("tools/derive-form-post.py"), encoding: .utf8)
    // The script finds the pack from its own path: run it where it is.
    let run = Python.run(
      script.replacingOccurrences(
        of: "os.path.dirname(os.path.abspath(__file__))",
        with: "\"\(Self.directory.appendingPathComponent("tools").path)\""),
      arguments: ["--check"])
    #expect(run.status == 0, "\(run.output)")
  }

  /// The verdicts `conformance/expected-verdicts.txt` gives the mock, by pack file (a line for all
  /// of a file's variants) or by `file[values]` (one matrix instance).
  static func expectedOnTheMock() throws -> [String: String] {
    let text = try String(
      contentsOf: BundledScenarioTests.root.appendingPathComponent("conformance/expected-verdicts.txt"), encoding: .utf8
    )
    var verdicts: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
      if parts.count == 4, parts[0] == "mock" { verdicts[String(parts[1])] = String(parts[2]) }
    }
    return verdicts
  }

  @Test("on the embedded mock every module gets the verdict expected-verdicts.txt gives it")
  func mockVerdicts() async throws {
    // The 30-second code reuse is oidcc-codereuse with a wait: left to conformance/run.
    let files = Self.files.filter { !$0.lastPathComponent.contains("30seconds") }
    let yamls = try files.map { try String(contentsOf: $0, encoding: .utf8) }
    let report = try await MockHarness.run(yamls, jobs: 1)
    let expected = try Self.expectedOnTheMock()
    #expect(expected.count >= 20)
    // The harness names the files scenario0.yaml, scenario1.yaml, … in the order given.
    let paths = Dictionary(
      uniqueKeysWithValues: files.enumerated().map { index, file in
        ("scenario\(index).yaml", "conformance-pack/" + file.path.dropFirst(Self.directory.path.count + 1))
      })
    #expect(Set(report.scenarios.map(\.file)) == Set(paths.keys), "every file ran")
    for scenario in report.scenarios {
      let path = paths[scenario.file] ?? scenario.file
      let row = PlanTable.row(of: scenario, tenant: nil)
      let verdict =
        scenario.tags.contains { $0.hasPrefix(PlanTable.tagPrefix) } ? row.result.rawValue : scenario.status.rawValue
      let instance = path + Self.variantSuffix(row.variant)
      #expect(
        verdict == (expected[instance] ?? expected[path] ?? "passed"), "\(instance): \(scenario.problemSummary)")
    }
  }

  /// `[id_token+token]`: a variant's values as `expected-verdicts.txt` writes them (as
  /// conformance/verdicts.py does).
  static func variantSuffix(_ variant: String?) -> String {
    guard let variant else { return "" }
    let values = variant.components(separatedBy: ", ").map { part in
      part.range(of: ": ").map { String(part[$0.upperBound...]) } ?? part
    }
    return "[" + values.map { $0.replacingOccurrences(of: " ", with: "+") }.joined(separator: ",") + "]"
  }

  @Test("a request without nonce sends none: `parameters: { nonce: null }` removes a default")
  func nullRemovesADefault() async throws {
    let report = try await MockHarness.run(
      try String(
        contentsOf: Self.directory.appendingPathComponent(
          "basic/oidcc-ensure-request-without-nonce-succeeds-for-code-flow.yaml"), encoding: .utf8))
    #expect(report.status == .passed, "\(report.problemSummary)")
    let url = try #require(report.steps.first { $0.id == "authorize" }?.result?.member("authorize_url")?.stringValue)
    #expect(!url.contains("nonce="))
    #expect(url.contains("state=") && !url.contains("code_challenge="))
  }

  /// Runs conformance/verdicts.py on a report with these `(tenant, file, status)` scenarios.
  static func checkVerdicts(
    _ scenarios: [(String, String, String)], expected: String, modules: [(String, String, String)] = []
  ) throws -> Int32 {
    try checkVerdicts(
      named: scenarios.map { ($0.0, $0.1, $0.2, "s") }, expected: expected,
      modules: modules.map { ($0.0, $0.1, $0.2, nil) })
  }

  /// Runs conformance/verdicts.py on a report with these `(tenant, file, status, name)` scenarios
  /// and `(tenant, file, result, variant)` plan rows.
  static func checkVerdicts(
    named scenarios: [(String, String, String, String)], expected: String, modules: [(String, String, String, String?)]
  ) throws -> Int32 {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdicts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let report: Value = [
      "scenarios": .array(
        scenarios.map { tenant, file, status, name in
          [
            "tenant": .string(tenant), "file": .string(file), "status": .string(status), "name": .string(name),
            "warnings": 0, "steps": [],
          ]
        }),
      "run": ["tenant": "mock,conformance"],
      "test_plans": [
        [
          "plan": "p",
          "modules": .array(
            modules.map { tenant, file, result, variant in
              [
                "tenant": .string(tenant), "file": .string(file), "result": .string(result), "detail": .null,
                "variant": variant.map(Value.string) ?? .null,
              ]
            }),
        ]
      ],
    ]
    try report.jsonText().write(to: directory.appendingPathComponent("r.json"), atomically: true, encoding: .utf8)
    try expected.write(to: directory.appendingPathComponent("e.txt"), atomically: true, encoding: .utf8)
    let script = try String(
      contentsOf: BundledScenarioTests.root.appendingPathComponent("conformance/verdicts.py"), encoding: .utf8)
    return Python.run(
      script,
      arguments: [directory.appendingPathComponent("r.json").path, directory.appendingPathComponent("e.txt").path]
    ).status
  }

  @Test("conformance/run's verdict check: only listed skips and deviations pass, and a stale line fails")
  func verdictCheck() throws {
    let expected = "conformance  pack/a.yaml  failed  ignores max_age (Core §3.1.2.1)\n"
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "passed"), ("conformance", "pack/a.yaml", "failed")], expected: expected) == 0)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "failed"), ("conformance", "pack/a.yaml", "failed")], expected: expected) == 1)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "skipped"), ("conformance", "pack/a.yaml", "failed")], expected: expected) == 1)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "passed"), ("conformance", "pack/a.yaml", "passed")], expected: expected) == 1)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "passed"), ("conformance", "pack/a.yaml", "error")], expected: expected) == 1)
  }

  @Test("a variant of a module is listed as FILE[values], or with every variant as FILE")
  func variantVerdictCheck() throws {
    let scenarios = [
      ("mock", "implicit/a.yaml", "passed", "a: x [response_type: id_token]"),
      ("mock", "implicit/a.yaml", "passed", "a: x [response_type: id_token token]"),
    ]
    let modules = [
      ("mock", "implicit/a.yaml", "passed", "response_type: id_token"),
      ("mock", "implicit/a.yaml", "warning", "response_type: id_token token"),
    ]
    let one =
      "mock  implicit/a.yaml[id_token+token]  warning  no acr (ValidateIdTokenACRClaimAgainstAcrValuesRequest)\n"
    #expect(try Self.checkVerdicts(named: scenarios, expected: one, modules: modules) == 0)
    // The line for the whole file wants the warning of the variant that passed too.
    let all = "mock  implicit/a.yaml  warning  no acr (ValidateIdTokenACRClaimAgainstAcrValuesRequest)\n"
    #expect(try Self.checkVerdicts(named: scenarios, expected: all, modules: modules) == 1)
    // Another variant's line does not cover this one.
    let other = "mock  implicit/a.yaml[id_token]  warning  no acr (ValidateIdTokenACRClaimAgainstAcrValuesRequest)\n"
    #expect(try Self.checkVerdicts(named: scenarios, expected: other, modules: modules) == 1)
  }

  @Test("a plan module is judged by its plan result: a warning or review must be listed, as a failure")
  func planVerdictCheck() throws {
    let scenarios = [("mock", "basic/a.yaml", "passed"), ("mock", "basic/b.yaml", "passed")]
    let listed = "mock  basic/a.yaml  warning  no acr (ValidateIdTokenACRClaimAgainstAcrValuesRequest, Core §3.1.2.1)\n"
    let modules = [("mock", "basic/a.yaml", "warning"), ("mock", "basic/b.yaml", "passed")]
    #expect(try Self.checkVerdicts(scenarios, expected: listed, modules: modules) == 0)
    // A review nobody listed, or a listed warning that passed, is unexpected.
    #expect(
      try Self.checkVerdicts(
        scenarios, expected: listed, modules: [("mock", "basic/a.yaml", "warning"), ("mock", "basic/b.yaml", "review")]
      ) == 1)
    #expect(
      try Self.checkVerdicts(
        scenarios, expected: listed, modules: [("mock", "basic/a.yaml", "passed"), ("mock", "basic/b.yaml", "passed")])
        == 1)
  }
}
