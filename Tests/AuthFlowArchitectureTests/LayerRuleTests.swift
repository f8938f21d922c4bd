import Foundation
import Testing

/// The layer rules of docs/architecture.md, checked on the package's real target graph: every
/// dependency of every source target must be one its layer allows, and every module a source file
/// imports must be a declared dependency of its target. Test targets may depend on anything.
@Suite struct LayerRuleTests {
  /// What each source target may depend on: other targets of the package, and products of other
  /// packages. A target missing here is itself a violation (a new module needs its rule).
  static let rules: [String: Set<String>] = [
    // Values, locations, diagnostics, secrets: depends on nothing.
    "AuthFlowCore": [],
    "AuthFlowExpression": ["AuthFlowCore"],
    // The YAML reader, below both the scenario and the mock modules: libyaml's event parser through
    // the package's own system library target (not Yams, whose C module `CYaml` is not a product).
    "AuthFlowYAML": ["AuthFlowCore", "CLibYAML"],
    "CLibYAML": [],
    // The scenario language: no network, no server.
    "AuthFlowScenario": ["AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML"],
    "AuthFlowJOSE": ["AuthFlowCore", "Crypto", "_CryptoExtras"],
    "CLibXML2": [],
    "AuthFlowHTTP": [
      "AuthFlowCore", "CLibXML2", "AsyncHTTPClient", "Logging", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOSSL",
      "NIOWebSocket", "Tracing",
    ],
    // The mock tenant knows YAML and JOSE, never the scenario language or the runtime; it sends
    // its messages over SMTP with the mail stack's sender.
    "AuthFlowMockTenant": [
      "AuthFlowCore", "AuthFlowJOSE", "AuthFlowYAML", "AuthFlowMail", "Hummingbird", "HummingbirdCore", "Logging",
      "NIOCore",
      "NIOHTTP1", "NIOHTTPTypes", "ServiceLifecycle",
    ],
    // The mail receiver and IMAP client: SwiftNIO only, no authflow vocabulary.
    "AuthFlowMail": ["NIOCore", "NIOPosix", "NIOTLS", "NIOSSL"],
    // `authflow inbox`: the receiver behind an HTTP API; knows values (JSON), never the runtime.
    "AuthFlowInbox": [
      "AuthFlowCore", "AuthFlowExpression", "AuthFlowMail", "Hummingbird", "Logging", "NIOCore", "ServiceLifecycle",
    ],
    // What a run produced: scenario vocabulary (severities, instances, the flow graph), no network.
    "AuthFlowResults": ["AuthFlowCore", "AuthFlowScenario"],
    // The runtime knows a tenant through `EmbeddedTenantHost`, never the mock itself.
    "AuthFlowRuntime": [
      "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowJOSE",
      "AuthFlowHTTP", "Logging", "Tracing",
    ],
    // The one module that links the runtime and the mock.
    "AuthFlowMockHosting": ["AuthFlowCore", "AuthFlowRuntime", "AuthFlowMockTenant", "AuthFlowMail"],
    // Reporters read results only (the HTML report draws the scenario's flow graph and hashes its
    // inline script and style with swift-crypto): no runtime, HTTP client, NIO or Hummingbird.
    "AuthFlowReporting": ["AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "Crypto"],
    // The run as a library: the stages, the reporters and the embedded mock composed into one
    // session (`authflow run`, `report merge` and the tests call it).
    "AuthFlowRun": [
      "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowReporting",
      "AuthFlowMockHosting", "AuthFlowInbox", "AuthFlowMail", "Tracing",
    ],
    // `authflow monitor`: a prepared run on a schedule, served as metrics and a status page. It
    // reads results and renders them with the reporters; it never reaches the mock but through
    // the run library.
    "AuthFlowMonitor": [
      "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowReporting",
      "AuthFlowRun", "AuthFlowJOSE", "Hummingbird", "Logging", "Prometheus", "ServiceLifecycle",
    ],
    // The OTLP exporter of the run's spans: swift-otel and the Tracing API, no authflow module.
    "AuthFlowTelemetry": ["OTel", "Tracing", "Logging", "ServiceLifecycle"],
    // The bench signs with the mock's own key type (AuthFlowJOSE) to measure the signing limit.
    "AuthFlowBenchmark": [
      "AuthFlowCore", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime", "AuthFlowHTTP", "AuthFlowMockTenant",
      "AuthFlowMockHosting", "AuthFlowJOSE",
    ],
    // Test helpers (a loopback server, hostile sockets): linked by test targets only.
    "AuthFlowTestSupport": ["AuthFlowCore", "Hummingbird", "NIOConcurrencyHelpers", "NIOCore", "NIOPosix", "NIOSSL"],
    // The executable composes everything.
    "authflow": [
      "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowRuntime",
      "AuthFlowReporting", "AuthFlowMockTenant", "AuthFlowMockHosting", "AuthFlowJOSE", "AuthFlowHTTP",
      "AuthFlowBenchmark", "AuthFlowRun", "AuthFlowInbox", "AuthFlowMail", "AuthFlowMonitor", "AuthFlowTelemetry",
      "ArgumentParser", "Logging",
    ],
  ]

  /// Modules that must not reach the network stack even transitively: what they link is what a
  /// reader of their output pays for.
  static let networkFree: Set<String> = [
    "AuthFlowCore", "AuthFlowExpression", "AuthFlowYAML", "AuthFlowScenario", "AuthFlowResults", "AuthFlowReporting",
  ]
  static let networkStack: Set<String> = [
    "AuthFlowHTTP", "AuthFlowMockTenant", "AuthFlowRuntime", "AuthFlowMockHosting", "AuthFlowMail", "AuthFlowInbox",
    "AsyncHTTPClient", "Hummingbird",
    "HummingbirdCore", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOSSL", "NIOWebSocket", "NIOHTTPTypes", "NIOTLS",
  ]

  @Test func everyEdgeOfThePackageFollowsTheLayerRules() throws {
    let graph = try PackageGraph.dump()
    #expect(graph.targets.count > 10, "the dump has too few targets: \(graph.targets.keys.sorted())")
    let violations = Self.violations(in: graph)
    #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
  }

  /// Modules of the toolchain and the platform a source file may import without declaring them.
  static let toolchainModules: Set<String> = [
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Synchronization", "Glibc", "Musl",
    "Darwin", "_Concurrency", "Observation",
  ]

  /// What a product makes importable, where that is not just the module of its own name.
  static let productModules: [String: Set<String>] = [:]

  @Test func everySourceFileImportsOnlyDeclaredDependencies() throws {
    let graph = try PackageGraph.dump()
    let files = try Self.sourceFiles(of: graph)
    #expect(files.count > 50, "too few source files: \(files.count)")
    let violations = Self.importViolations(in: graph, files: files)
    #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
  }

  /// Yams' C module (its bundled libyaml) is no product of Yams: importing it is a dependency the
  /// package cannot declare, and links a second libyaml beside the system's (`CLibYAML`).
  @Test func noSourceFileImportsYamsOrItsCModule() throws {
    let sources = PackageGraph.packageRoot.appendingPathComponent("Sources")
    for file in try Self.swiftFiles(under: sources) {
      let imported = Self.imports(in: try String(contentsOf: file, encoding: .utf8))
      for module in ["CYaml", "Yams"] where imported.contains(module) {
        Issue.record("\(file.path) imports \(module): read YAML through CLibYAML (libyaml), not Yams")
      }
    }
  }

  /// libyaml is a declared dependency of the package: a system library target that pkg-config finds
  /// and whose card names the Debian package, the YAML reader's only way to libyaml. No source target
  /// reaches Yams, even through another target: its bundled libyaml would be linked beside the
  /// system's (Yams is the oracle of AuthFlowYAMLTests only).
  @Test func theYAMLReaderReachesLibyamlThroughTheDeclaredSystemLibrary() throws {
    let graph = try PackageGraph.dump()
    let library = try #require(graph.targets["CLibYAML"], "no CLibYAML target")
    #expect(library.isSystemLibrary)
    #expect(library.pkgConfig == "yaml-0.1")
    #expect(library.aptPackages == ["libyaml-dev"])
    #expect(graph.targets["AuthFlowYAML"]?.dependencies.contains("CLibYAML") == true)
    for (name, target) in graph.targets.sorted(by: { $0.key < $1.key }) where !target.isTest {
      #expect(!graph.closure(of: name).contains("Yams"), "\(name) reaches Yams")
    }
  }

  /// Every system library target names its Debian package, and CI (`.ci/run`) and the README's
  /// install line for a fresh machine install it: a declared library is also a provided one.
  @Test func everySystemLibraryPackageIsInstalledByCIAndTheReadme() throws {
    let graph = try PackageGraph.dump()
    let libraries = graph.targets.filter(\.value.isSystemLibrary)
    for (name, library) in libraries.sorted(by: { $0.key < $1.key }) where library.aptPackages.isEmpty {
      Issue.record("\(name) names no Debian package: add `providers: [.apt([…])]` in Package.swift")
    }
    let packages = libraries.values.flatMap(\.aptPackages).sorted()
    #expect(packages.contains("libyaml-dev") && packages.contains("libxml2-dev"), "\(packages)")
    for document in [".ci/run", "README.md"] {
      let text = try String(
        contentsOf: PackageGraph.packageRoot.appendingPathComponent(document), encoding: .utf8)
      let installed = Set(
        text.split(whereSeparator: \.isNewline).filter { $0.contains("apt-get install") }
          .flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) })
      for package in packages where !installed.contains(package) {
        Issue.record("\(document) does not install \(package) (a system library target's provider)")
      }
    }
  }

  /// The checker reads the imports of a file past attributes, access levels and kinds, and names
  /// each one its target does not declare.
  @Test func anUndeclaredImportIsNamed() {
    let graph = PackageGraph(targets: [
      "AuthFlowYAML": .init(isTest: false, dependencies: ["AuthFlowCore", "CLibYAML"]),
      "CLibYAML": .init(isTest: false, dependencies: [], isSystemLibrary: true),
    ])
    let text = """
      public import AuthFlowCore
      internal import CLibYAML
      @preconcurrency import Foundation
      #if canImport(Glibc)
        import Glibc
      #endif
      // import Hummingbird
      internal import CYaml
      let script = \"""
        import json, sys
        \"""
      @_spi(Private) import struct Yams.Node
      """
    #expect(
      Self.imports(in: text) == ["AuthFlowCore", "CLibYAML", "Foundation", "Glibc", "CYaml", "Yams"])
    #expect(
      Self.importViolations(in: graph, files: [.init(target: "AuthFlowYAML", path: "Y.swift", text: text)]) == [
        "Y.swift (AuthFlowYAML) imports CYaml, which AuthFlowYAML does not declare as a dependency",
        "Y.swift (AuthFlowYAML) imports Yams, which AuthFlowYAML does not declare as a dependency",
      ])
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

  /// A Swift file of a source target.
  struct SourceFile {
    var target: String
    var path: String
    var text: String
  }

  /// Every import of `files` that is neither a declared dependency of the file's target (a target,
  /// or a module of a product) nor a module of the toolchain.
  static func importViolations(in graph: PackageGraph, files: [SourceFile]) -> [String] {
    var found: [String] = []
    for file in files {
      let declared = graph.targets[file.target]?.dependencies ?? []
      let allowed = toolchainModules.union(declared.flatMap { productModules[$0] ?? [$0] })
      for module in imports(in: file.text) where !allowed.contains(module) {
        found.append(
          "\(file.path) (\(file.target)) imports \(module), which \(file.target) does not declare as a dependency")
      }
    }
    return found
  }

  /// The modules a Swift file imports, in order: `[attributes] [access] import [kind] Module[.Sub]`
  /// at the start of a line, outside multi-line string literals (a Python script's `import json`).
  static func imports(in text: String) -> [String] {
    let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
    var modules: [String] = []
    var inLiteral = false
    for line in text.split(whereSeparator: \.isNewline) {
      let delimiters = line.components(separatedBy: "\"\"\"").count - 1
      defer { if delimiters % 2 == 1 { inLiteral.toggle() } }
      guard !inLiteral else { continue }
      var words = line.split(whereSeparator: \.isWhitespace)[...]
      while let word = words.first, word.hasPrefix("@") || accessLevels.contains(word) { words = words.dropFirst() }
      guard words.first == "import", words.count >= 2 else { continue }
      words = words.dropFirst()
      if let kind = words.first, kinds.contains(kind), words.count >= 2 { words = words.dropFirst() }
      guard let module = words.first?.split(separator: ".").first,
        module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else { continue }
      modules.append(String(module))
    }
    return modules
  }

  private static let accessLevels: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]

  /// The Swift files of every source target (system library targets have none), at the target's
  /// path or `Sources/<name>`.
  static func sourceFiles(of graph: PackageGraph) throws -> [SourceFile] {
    var files: [SourceFile] = []
    let targets = graph.targets.filter { !$0.value.isTest && !$0.value.isSystemLibrary }
    for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
      let directory = PackageGraph.packageRoot.appendingPathComponent(target.path ?? "Sources/\(name)")
      for file in try swiftFiles(under: directory) {
        let path = String(file.path.dropFirst(PackageGraph.packageRoot.path.count + 1))
        files.append(SourceFile(target: name, path: path, text: try String(contentsOf: file, encoding: .utf8)))
      }
    }
    return files
  }

  static func swiftFiles(under directory: URL) throws -> [URL] {
    guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
      return []
    }
    return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map(\.standardizedFileURL)
      .sorted { $0.path < $1.path }
  }
}

/// The package's targets and their direct dependencies (targets and products by name), as
/// `swift package dump-package` prints them.
struct PackageGraph {
  struct Target {
    var isTest: Bool
    var dependencies: [String]
    /// A `.systemLibrary` target: a module map, no Swift sources.
    var isSystemLibrary = false
    /// The target's directory, when it is not `Sources/<name>`.
    var path: String? = nil
    /// A system library's pkg-config name and the Debian packages its card names (`.apt([…])`).
    var pkgConfig: String? = nil
    var aptPackages: [String] = []
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
      // {"providers": [{"apt": [["libyaml-dev"]]}]}
      let providers = entry["providers"] as? [[String: Any]] ?? []
      let apt = providers.compactMap { $0["apt"] as? [[String]] }.flatMap { $0.flatMap { $0 } }
      targets[name] = Target(
        isTest: (entry["type"] as? String) == "test", dependencies: dependencies,
        isSystemLibrary: (entry["type"] as? String) == "system", path: entry["path"] as? String,
        pkgConfig: entry["pkgConfig"] as? String, aptPackages: apt)
    }
    return PackageGraph(targets: targets)
  }
}
