import Foundation
import Testing

/// The layer rules of docs/architecture.md, checked on the package's real target graph: every
/// dependency of every source target must be one its layer allows. Test targets may depend on
/// anything.
@Suite struct LayerRuleTests {
  /// What each source target may depend on: other targets of the package, and products of other
  /// packages. A target missing here is itself a violation (a new module needs its rule).
  static let rules: [String: Set<String>] = [
    // Values, locations, diagnostics, secrets: depends on nothing.
    "AuthFlowCore": [],
    "AuthFlowExpression": ["AuthFlowCore"],
    // The YAML reader, below both the scenario and the mock modules.
    "AuthFlowYAML": ["AuthFlowCore", "Yams"],
    // The scenario language: no network, no server.
    "AuthFlowScenario": ["AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML"],
    "AuthFlowJOSE": ["AuthFlowCore", "Crypto", "_CryptoExtras"],
    "CLibXML2": [],
    "AuthFlowHTTP": [
      "AuthFlowCore", "CLibXML2", "AsyncHTTPClient", "Logging", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOSSL",
      "NIOWebSocket",
    ],
    // The mock tenant knows YAML and JOSE, never the scenario language or the runtime.
    "AuthFlowMockTenant": [
      "AuthFlowCore", "AuthFlowJOSE", "AuthFlowYAML", "Hummingbird", "HummingbirdCore", "Logging", "NIOCore",
      "NIOHTTP1", "NIOHTTPTypes", "ServiceLifecycle",
    ],
    // What a run produced: scenario vocabulary (severities, instances, the flow graph), no network.
    "AuthFlowResults": ["AuthFlowCore", "AuthFlowScenario"],
    // The runtime knows a tenant through `EmbeddedTenantHost`, never the mock itself.
    "AuthFlowRuntime": [
      "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowJOSE",
      "AuthFlowHTTP", "Logging",
    ],
    // The one module that links the runtime and the mock.
    "AuthFlowMockHosting": ["AuthFlowCore", "AuthFlowRuntime", "AuthFlowMockTenant"],
    // Reporters read results only (the HTML report draws the scenario's flow graph and hashes its
    // inline script and style with swift-crypto): no runtime, HTTP client, NIO or Hummingbird.
    "AuthFlowReporting": ["AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "Crypto"],
    // The run as a library: the stages, the reporters and the embedded mock composed into one
    // session (`authflow run`, `report merge` and the tests call it).
    "AuthFlowRun": [
      "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowReporting",
      "AuthFlowMockHosting",
    ],
    // The bench signs with the mock's own key type (AuthFlowJOSE) to measure the signing limit.
    "AuthFlowBenchmark": [
      "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowMockTenant",
      "AuthFlowMockHosting", "AuthFlowJOSE",
    ],
    // Test helpers (a loopback server, hostile sockets): linked by test targets only.
    "AuthFlowTestSupport": ["AuthFlowCore", "Hummingbird", "NIOCore", "NIOPosix", "NIOSSL"],
    // The executable composes everything.
    "authflow": [
      "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime",
      "AuthFlowReporting", "AuthFlowMockTenant", "AuthFlowMockHosting", "AuthFlowJOSE", "AuthFlowHTTP",
      "AuthFlowBenchmark", "AuthFlowRun", "ArgumentParser", "Logging",
    ],
  ]

  /// Modules that must not reach the network stack even transitively: what they link is what a
  /// reader of their output pays for.
  static let networkFree: Set<String> = [
    "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowReporting",
  ]
  static let networkStack: Set<String> = [
    "AuthFlowHTTP", "AuthFlowMockTenant", "AuthFlowRuntime", "AuthFlowMockHosting", "AsyncHTTPClient", "Hummingbird",
    "HummingbirdCore", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOSSL", "NIOWebSocket", "NIOHTTPTypes",
  ]

  @Test func everyEdgeOfThePackageFollowsTheLayerRules() throws {
    let graph = try PackageGraph.dump()
    #expect(graph.targets.count > 10, "the dump has too few targets: \(graph.targets.keys.sorted())")
    let violations = Self.violations(in: graph)
    #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
  }

  @Test func networkFreeModulesDoNotReachTheNetworkStack() throws {
    let graph = try PackageGraph.dump()
    for module in Self.networkFree.sorted() {
      let reached = graph.closure(of: module).intersection(Self.networkStack)
      #expect(reached.isEmpty, "\(module) reaches \(reached.sorted().joined(separator: ", "))")
    }
  }

  /// The checker names the offending edge, and a target without a rule.
  @Test func aSidewaysEdgeIsNamed() {
    let graph = PackageGraph(targets: [
      "AuthFlowCore": .init(isTest: false, dependencies: []),
      "AuthFlowReporting": .init(isTest: false, dependencies: ["AuthFlowCore", "AuthFlowRuntime"]),
      "AuthFlowNew": .init(isTest: false, dependencies: ["AuthFlowCore"]),
      "AuthFlowRuntimeTests": .init(isTest: true, dependencies: ["AuthFlowMockTenant"]),
    ])
    #expect(
      Self.violations(in: graph) == [
        "AuthFlowNew has no layer rule: add it to LayerRuleTests.rules and docs/architecture.md",
        "AuthFlowReporting → AuthFlowRuntime is against the layer rules (AuthFlowReporting may depend on: "
          + "AuthFlowCore, AuthFlowResults, AuthFlowScenario, Crypto)",
      ])
  }

  static func violations(in graph: PackageGraph) -> [String] {
    var found: [String] = []
    for (name, target) in graph.targets.sorted(by: { $0.key < $1.key }) where !target.isTest {
      guard let allowed = rules[name] else {
        found.append("\(name) has no layer rule: add it to LayerRuleTests.rules and docs/architecture.md")
        continue
      }
      for dependency in target.dependencies where !allowed.contains(dependency) {
        found.append(
          "\(name) → \(dependency) is against the layer rules (\(name) may depend on: "
            + "\(allowed.sorted().joined(separator: ", ")))")
      }
    }
    return found
  }
}

/// The package's targets and their direct dependencies (targets and products by name), as
/// `swift package dump-package` prints them.
struct PackageGraph {
  struct Target {
    var isTest: Bool
    var dependencies: [String]
  }

  var targets: [String: Target]

  /// Every target and product `name` depends on, directly or through other targets.
  func closure(of name: String) -> Set<String> {
    var seen: Set<String> = []
    var pending = targets[name]?.dependencies ?? []
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      pending += targets[next]?.dependencies ?? []
    }
    return seen
  }

  struct DumpFailed: Error, CustomStringConvertible {
    var description: String
  }

  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Runs `swift package dump-package` on this package. Its own scratch directory keeps it from
  /// waiting for the `.build` lock of the `swift test` running this test.
  static func dump() throws -> PackageGraph {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-layers-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift", "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path, "dump-package",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DumpFailed(description: "swift package dump-package exited with \(process.terminationStatus)")
    }
    return try parse(data)
  }

  static func parse(_ data: Data) throws -> PackageGraph {
    guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let list = root["targets"] as? [[String: Any]]
    else { throw DumpFailed(description: "the dump has no targets") }
    var targets: [String: Target] = [:]
    for entry in list {
      guard let name = entry["name"] as? String else { continue }
      let dependencies = (entry["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
        // {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, …]}
        for key in ["byName", "target", "product"] {
          if let fields = dependency[key] as? [Any], let name = fields.first as? String { return name }
        }
        return nil
      }
      targets[name] = Target(isTest: (entry["type"] as? String) == "test", dependencies: dependencies)
    }
    return PackageGraph(targets: targets)
  }
}
