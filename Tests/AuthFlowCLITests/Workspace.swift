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
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else { throw CLIProcess.NotBuilt(description: "could not bind a loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
