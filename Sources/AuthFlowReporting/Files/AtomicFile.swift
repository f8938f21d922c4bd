import AuthFlowCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a report file atomically, so that a reader — or a run killed in the middle of a write,
/// even by `kill -9` — finds the previous complete report or the new one, never a torn file, and no
/// temporary file is left beside it.
///
/// On Linux the contents go to an unnamed file in the report's directory (`open(dir, O_TMPFILE)`),
/// which the kernel removes if the process dies while writing; it is then given a temporary name
/// with `linkat` and renamed over the report (`rename` replaces atomically; `linkat` cannot
/// replace). Only for the instant between `linkat` and `rename` does a named temporary exist.
/// Where `O_TMPFILE` is unsupported (macOS, some file systems), the contents are written to the
/// named temporary directly. Named temporaries are recognisable — `.NAME.authflow-tmp-PID-RANDOM`
/// beside `NAME` — and ``removeStaleTemporaries(beside:)`` (called by every run before it starts)
/// deletes those whose process is gone.
public enum AtomicFile {
  /// The marker in every temporary file's name.
  public static let marker = ".authflow-tmp-"

  /// Writes `contents` to `path`, replacing it atomically; missing directories are created.
  public static func write(_ contents: String, to path: String) throws(ReportFileError) {
    try write(to: path) { $0.write(contents) }
  }

  /// Writes what `render` writes to `path`, chunk by chunk as it is rendered, replacing the file
  /// atomically once it is complete; missing directories are created.
  public static func write(to path: String, _ render: (inout ReportTextSink) -> Void) throws(ReportFileError) {
    let (directory, name) = split(path)
    try createDirectory(directory)
    let temporary = temporaryPath(directory: directory, name: name)
    if let descriptor = openUnnamed(in: directory) {
      defer { close(descriptor) }
      try writeAll(render, to: descriptor, path: path)
      guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else {
        throw .system("could not name the new report beside", path: path, errno: errno)
      }
    } else {
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { throw .system("could not create a file beside", path: path, errno: errno) }
      defer { close(descriptor) }
      do {
        try writeAll(render, to: descriptor, path: path)
      } catch {
        unlink(temporary)
        throw error
      }
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw .system("could not replace", path: path, errno: code)
    }
  }

  /// Checks that a report can be written to `path` without writing it: the directory exists (or
  /// is created) and a file can be created in it, and `path` is not a directory.
  public static func checkWritable(_ path: String) throws(ReportFileError) {
    let (directory, name) = split(path)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw .isDirectory(path)
    }
    try createDirectory(directory)
    if let descriptor = openUnnamed(in: directory) {
      close(descriptor)
      return
    }
    let probe = temporaryPath(directory: directory, name: name)
    let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .system("cannot create a file beside", path: path, errno: errno) }
    close(descriptor)
    unlink(probe)
  }

  /// Deletes the temporaries a killed run left beside `path` (named by ``marker`` with the id of a
  /// process that no longer exists). Temporaries of live processes are left alone.
  public static func removeStaleTemporaries(beside path: String) {
    let (directory, name) = split(path)
    let prefix = "." + name + marker
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
    for entry in entries where entry.hasPrefix(prefix) {
      let rest = entry.dropFirst(prefix.count)
      guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }), pid > 0 else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + entry) }
    }
  }

  /// `(directory, file name)`; the directory is `.` for a bare name.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  static func temporaryPath(directory: String, name: String) -> String {
    "\(directory)/.\(name)\(marker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  private static func createDirectory(_ directory: String) throws(ReportFileError) {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .directory(directory, reason: (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)")
    }
  }

  /// An unnamed file in `directory` (Linux `O_TMPFILE`), or nil where that is unsupported.
  private static func openUnnamed(in directory: String) -> Int32? {
    #if os(Linux)
      // O_TMPFILE is `__O_TMPFILE | O_DIRECTORY`; Glibc's header macro does not import into Swift.
      let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
      let descriptor = open(directory, temporaryFile | O_WRONLY | O_CLOEXEC, 0o644)
      return descriptor >= 0 ? descriptor : nil
    #else
      return nil
    #endif
  }

  /// Renders into the file: each chunk written as it comes; after a failed write the rest is
  /// not written, and the failure is thrown.
  private static func writeAll(
    _ render: (inout ReportTextSink) -> Void, to descriptor: Int32, path: String
  ) throws(ReportFileError) {
    var failure: Int32?
    withoutActuallyEscaping({ (chunk: String) in
      guard failure == nil else { return }
      var chunk = chunk
      failure = chunk.withUTF8 { StandardStreams.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }) { deliver in
      var sink = ReportTextSink(deliver: deliver)
      render(&sink)
      sink.flush()
    }
    if let failure { throw .system("could not write", path: path, errno: failure) }
  }
}
