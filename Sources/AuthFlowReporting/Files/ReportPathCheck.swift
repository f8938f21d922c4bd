import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The check every run makes before its first scenario: each report file can be written (its
/// directory exists or can be created, a file can be created there, the path is not a directory),
/// and no two reporters write the same file (compared after making paths absolute, removing `.`
/// and `..`, and resolving symbolic links). Stale temporaries of killed runs are removed on the way
/// (``AtomicFile/removeStaleTemporaries(beside:)``).
public enum ReportPathCheck {
  /// One reporter and the file it writes.
  public struct Target: Sendable, Hashable {
    /// `junit:reports/r.xml`, as the user wrote it.
    public var reporter: String
    public var path: String

    public init(reporter: String, path: String) {
      self.reporter = reporter
      self.path = path
    }
  }

  /// The problems, one message each; empty when every report can be written.
  public static func problems(_ targets: [Target]) -> [String] {
    var problems: [String] = []
    var seen: [String: Target] = [:]
    for target in targets {
      do {
        try AtomicFile.checkWritable(target.path)
      } catch {
        problems.append(ReportPathMessages.unwritable(target, reason: error.description))
        continue
      }
      AtomicFile.removeStaleTemporaries(beside: target.path)
      let resolved = resolve(target.path)
      if let first = seen[resolved] {
        problems.append(ReportPathMessages.sameFile(first, target, resolved: resolved))
      } else {
        seen[resolved] = target
      }
    }
    return problems
  }

  /// The problems of reporters that would write over a file the run reads (`inputs`: its
  /// scenario files, `authflow.yaml`, fixtures): the report is rewritten as scenarios finish, so
  /// the file would be lost, and a scenario read after it would no longer load. The same file
  /// however either is named (`..`, a symbolic link on either side): compared by device and
  /// inode, one `stat` an input, and only when a report path already exists.
  public static func overwrittenInputs(_ targets: [Target], inputs: some Sequence<String>) -> [String] {
    var existing = targets.compactMap { target in FileIdentity(path: target.path).map { (target, $0) } }
    var problems: [String] = []
    for input in inputs {
      guard !existing.isEmpty else { break }
      guard let identity = FileIdentity(path: input) else { continue }
      existing.removeAll { target, reached in
        guard reached == identity else { return false }
        problems.append(ReportPathMessages.overwritesInput(target, input: input))
        return true
      }
    }
    return problems
  }

  /// A file's device and inode: the same file under any name.
  struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// Nil when nothing is at `path` (symbolic links followed).
    init?(path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }

  /// The absolute, normalised path with symbolic links resolved (of the file when it exists, else
  /// of its directory).
  static func resolve(_ path: String) -> String {
    let absolute =
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let url = URL(fileURLWithPath: absolute).standardizedFileURL
    if FileManager.default.fileExists(atPath: url.path) { return url.resolvingSymlinksInPath().path }
    let directory = url.deletingLastPathComponent().resolvingSymlinksInPath()
    return directory.appendingPathComponent(url.lastPathComponent).path
  }
}

/// The messages of ``ReportPathCheck``.
enum ReportPathMessages {
  static func unwritable(_ target: ReportPathCheck.Target, reason: String) -> String {
    "reporter '\(target.reporter)' cannot write its report: \(reason)"
  }

  static func overwritesInput(_ target: ReportPathCheck.Target, input: String) -> String {
    "reporter '\(target.reporter)' would write over '\(input)', which this command reads; give the report another path"
  }

  static func sameFile(_ first: ReportPathCheck.Target, _ second: ReportPathCheck.Target, resolved: String) -> String {
    "reporters '\(first.reporter)' and '\(second.reporter)' would write the same file '\(resolved)'; give each its own"
  }
}
