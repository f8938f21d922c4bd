import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// `schemas/authflow.schema.json` and `ProjectConfigParser` agree on a client's
/// `token_endpoint_auth_method`: the methods authflow can send or an expression pass both, any
/// other value fails both.
@Suite("authflow.yaml: schema and parser in step")
struct ProjectSchemaTests {
  static func project(_ method: String) -> String {
    """
    tenants:
      op:
        kind: oidc
        issuer: https://op.example.com
        clients:
          rp: { client_id: rp, token_endpoint_auth_method: \(method) }
    """
  }

  static let cases: [(String, Bool)] = [
    ("client_secret_basic", true), ("client_secret_post", true), ("none", true),
    ("\"${{ env.AUTH_METHOD }}\"", true), ("private_key_jwt", false), ("client_secret_basik", false),
  ]

  @Test func tokenEndpointAuthMethodIsCheckedAlikeByTheSchemaAndTheParser() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appendingPathComponent("authflow.schema.json")
    try ProjectSchema.generate().write(to: schema, atomically: true, encoding: .utf8)
    var files: [String] = []
    for (index, (method, _)) in Self.cases.enumerated() {
      let file = directory.appendingPathComponent("case\(index).yaml")
      try Self.project(method).write(to: file, atomically: true, encoding: .utf8)
      files.append(file.path)
    }
    let python = Python.run(Python.validateYAMLScript, arguments: [schema.path] + files)
    #expect(python.status == 0, "python3 with jsonschema and PyYAML is required for this test: \(python.output)")
    let verdicts = python.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { $0.hasSuffix(" valid") }
    for (index, (method, valid)) in Self.cases.enumerated() {
      #expect(verdicts.count == Self.cases.count && verdicts[index] == valid, "schema on \(method): \(python.output)")
      let (_, diagnostics) = ProjectConfigParser().parse(Self.project(method), file: "authflow.yaml")
      #expect(diagnostics.hasErrors == !valid, "parser on \(method): \(diagnostics.map(\.description))")
    }
  }
}
