import AuthFlowCore
import AuthFlowTestSupport
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary directory holding scenario files, removed afterwards; and what tests read back.
enum Workspace {
  static func with(_ files: [String: String], _ body: (String) async throws -> Void) async throws {
    try await Scoped.directory(prefix: "authflow-cli") { url in
      let directory = url.path
      for (name, text) in files {
        let path = directory + "/" + name
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
      }
      try await body(directory)
    }
  }

  static func json(_ path: String) throws -> Value {
    try Value(jsonText: try String(contentsOfFile: path, encoding: .utf8))
  }

  /// Nil when the file is well-formed XML.
  static func xmlError(_ path: String) throws -> String? {
    let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
    return parser.parse() ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown error")"
  }

  /// Files in `directory` that are not reports: temporaries a write left behind.
  static func temporaries(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".authflow-tmp-") }
  }

  /// A loopback port nothing listens on (bound, read, released).
  static func closedPort() throws -> Int {
    try LoopbackPort.unused()
  }
}
