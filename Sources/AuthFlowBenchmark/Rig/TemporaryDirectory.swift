import Foundation

/// A directory under the system's temporary directory, removed with everything in it by
/// `remove()`.
public struct TemporaryDirectory: Sendable {
  public let path: String

  /// Creates a fresh, empty directory named `authflow-bench-…`.
  public init() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "authflow-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  /// `name` inside the directory.
  public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

  /// Deletes the directory and its contents.
  public func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
