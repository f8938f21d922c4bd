import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

@Suite struct ScenarioSchemaTests {
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let validScenarios = [
    "design.yaml": """
    # yaml-language-server: $schema=../schemas/scenario.schema.json
    scenario: Refresh tokens rotate and a reused one revokes the family
    tags: [renew, smoke]
    requires: [refresh_token_rotation]
    client: native
    vars:
      user: ${{ tenant.users.alice }}
    steps:
      - id: login
        web_auth:
          scope: openid profile email offline_access
          login: { email: "${{ vars.user.email }}", password: "${{ vars.user.password }}" }
        expect:
          id_token.claims.email: ${{ vars.user.email }}
          refresh_token: { exists: true }
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          refresh_token: { not_equals: "${{ steps.login.refresh_token }}" }
      - id: reuse
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          error.code: invalid_grant
          error.description: Unknown or invalid refresh token.
      - id: family_revoked
        renew: { refresh_token: "${{ steps.renew.refresh_token }}" }
        expect: { error.code: invalid_grant }
    """,
    "matrix.yml": """
    scenario: Waits and polls
    matrix:
      browser: [chrome, firefox]
    timeout: 5m
    steps:
      - wait: 2s
      - id: poll
        http: { url: "https://example.com/${{ matrix.browser }}", method: GET, headers: { accept: json } }
        retry: { attempts: 5, delay: 1s, backoff: 2, until: "${{ steps.poll.status == 200 }}" }
        expect:
          status: { one_of: [200, 204] }
          body: { equals: { name: alice }, not_contains: password }
          headers.date: { within: { of: "${{ now() }}", seconds: 30 } }
        save: { result: "${{ steps.poll.body }}" }
    cleanup:
      - logout:
    """,
  ]

  static let invalidScenario = """
    scenario: Broken
    steps:
      - id: a
        http: { url: "https://example.com", method: FETCH }
        expct: { status: 200 }
      - wait: 1s
        http: { url: "https://example.com" }
    """

  /// `schemas/authflow.schema.json` is generated; `AUTHFLOW_RECORD_SNAPSHOTS=1` rewrites it.
  /// (`scenario.schema.json` comes from the runtime's action registry, written only by
  /// `authflow schema`; GeneratedFilesTests checks it.)
  @Test func checkedInSchemasMatchTheGenerators() throws {
    let schemas = Self.repositoryRoot.appendingPathComponent("schemas")
    if ProcessInfo.processInfo.environment["AUTHFLOW_RECORD_SNAPSHOTS"] == "1" {
      try ProjectSchema.generate().write(
        to: schemas.appendingPathComponent("authflow.schema.json"), atomically: true, encoding: .utf8)
    }
    let project = try String(contentsOf: schemas.appendingPathComponent("authflow.schema.json"), encoding: .utf8)
    #expect(
      project == ProjectSchema.generate(), "regenerate schemas/authflow.schema.json with ProjectSchema.generate()")
  }

  @Test func generatedSchemaIsDeterministicAndListsEveryAction() throws {
    let schema = ScenarioSchema.generate(catalog: .test)
    #expect(schema == ScenarioSchema.generate(catalog: .test))
    let document = try Value(jsonText: schema)
    let actions = document.lookup(path: ["$defs", "actions"])?.objectValue?.keys.sorted()
    #expect(actions == ActionCatalog.test.names)
    #expect(document.lookup(path: ["$schema"]) == "https://json-schema.org/draft/2020-12/schema")
  }

  /// The same files through Python's `jsonschema` and through the Swift parser: the valid ones pass
  /// both, the invalid one fails both.
  @Test(.enabled(if: Python.interpreter != nil, Comment(rawValue: Python.skipNotice)))
  func pythonJSONSchemaAndTheParserAgree() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("scenario.schema.json", ScenarioSchema.generate(catalog: .test))
    for (name, text) in Self.validScenarios { try directory.write("scenarios/\(name)", text) }
    try directory.write("scenarios/invalid.yaml", Self.invalidScenario)

    let files = ["design.yaml", "invalid.yaml", "matrix.yml"].map { directory.path + "/scenarios/" + $0 }
    let python = Python.run(Python.validateYAMLScript, arguments: [directory.path + "/scenario.schema.json"] + files)
    #expect(python.status == 0, "python3 with jsonschema and PyYAML is required for this test: \(python.output)")
    // One `PATH valid|invalid` line per file; indented lines under it explain an invalid one.
    let verdicts = python.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { line in
      "\(line.split(separator: " ").first?.split(separator: "/").last ?? "") \(line.split(separator: " ").last ?? "")"
    }
    #expect(verdicts == ["design.yaml valid", "invalid.yaml invalid", "matrix.yml valid"], "\(python.output)")

    let output = await ScenarioLoader(catalog: .test).load([directory.path + "/scenarios"])
    let failing = Set(output.diagnostics.filter(\.isError).compactMap { $0.location?.file.split(separator: "/").last })
    #expect(failing == ["invalid.yaml"], "\(output.diagnostics.map(\.description))")
  }

}
