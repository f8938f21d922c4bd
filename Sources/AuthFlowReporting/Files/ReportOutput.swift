import AuthFlowCore
import Foundation

/// Where reporters write: standard output and files.
public protocol ReportOutput: Sendable {
  /// Writes text to standard output as is (callers end their lines).
  func standardOutput(_ text: String) async
  /// Creates or replaces the file at `path` (creating missing directories).
  func write(_ contents: String, toFile path: String) async throws
  /// Appends to the file at `path`, creating it if needed (`$GITHUB_STEP_SUMMARY` is shared by steps).
  func append(_ contents: String, toFile path: String) async throws
  /// Creates or replaces the file at `path` with what `render` writes, as it writes it.
  func write(toFile path: String, _ render: (inout ReportTextSink) -> Void) async throws
}

extension ReportOutput {
  /// Gathers the text, then writes it whole (outputs that keep files in memory).
  public func write(toFile path: String, _ render: (inout ReportTextSink) -> Void) async throws {
    try await write(ReportTextSink.collect(render), toFile: path)
  }
}

/// Standard output and the real file system.
public struct FileSystemOutput: ReportOutput {
  public init() {}

  /// Writes with ``StandardStreams/output(_:)``: a closed standard output is not an error here
  /// (it stops the run instead).
  public func standardOutput(_ text: String) async {
    StandardStreams.output(text)
  }

  /// Replaces the file atomically (``AtomicFile``): a reader, or a process killed mid-write, sees
  /// the old report or the new one, never half of one.
  public func write(_ contents: String, toFile path: String) async throws {
    try AtomicFile.write(contents, to: path)
  }

  /// Streams the text into the new file as it is rendered, then replaces the file atomically.
  public func write(toFile path: String, _ render: (inout ReportTextSink) -> Void) async throws {
    try AtomicFile.write(to: path, render)
  }

  public func append(_ contents: String, toFile path: String) async throws {
    let url = URL(fileURLWithPath: path)
    guard FileManager.default.fileExists(atPath: path) else {
      try await write(contents, toFile: path)
      return
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(contents.utf8))
  }
}

/// Keeps everything in memory: for tests, and for callers that post-process outputs.
public actor CapturedOutput: ReportOutput {
  /// Everything written to standard output, in order.
  public private(set) var console = ""
  /// Every file written, by path.
  public private(set) var files: [String: String] = [:]

  public init() {}

  public func standardOutput(_ text: String) async { console += text }
  public func write(_ contents: String, toFile path: String) async throws { files[path] = contents }
  public func append(_ contents: String, toFile path: String) async throws { files[path, default: ""] += contents }

  /// The console text followed by every file, sorted by path (what a redaction check scans).
  public var everything: String {
    ([console] + files.keys.sorted().map { "--- \($0)\n\(files[$0] ?? "")" }).joined(separator: "\n")
  }
}
