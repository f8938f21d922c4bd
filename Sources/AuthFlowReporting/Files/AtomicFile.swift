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
  ///
  /// A path that is a symbolic link is written through: the file it points to is replaced (in its
  /// own directory), and the link stays. A path that reaches something other than a regular file —
  /// `/dev/stdout`, a terminal, a named pipe — is a stream: the report is written to it as it is
  /// rendered, with nothing to replace (``isStream(_:)``); so is a path naming one of the process's
  /// descriptors (`/dev/stdout` redirected to a file), appended to.
  public static func write(to path: String, _ render: (inout ReportTextSink) -> Void) throws(ReportFileError) {
    if isStream(path) {
      // Not blocking on a named pipe nobody reads (ENXIO at once); then blocking writes as usual.
      let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK)
      guard descriptor >= 0 else { throw .system("could not open", path: path, errno: errno) }
      defer { close(descriptor) }
      let flags = fcntl(descriptor, F_GETFL)
      if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
      try writeAll(render, to: descriptor, path: path)
      return
    }
    let path = linkTarget(of: path)
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
  /// is created) and a file can be created in it, and `path` is not a directory; a stream
  /// (``isStream(_:)``) must be writable.
  public static func checkWritable(_ path: String) throws(ReportFileError) {
    if isStream(path) {
      guard access(path, W_OK) == 0 else { throw .system("cannot write to", path: path, errno: errno) }
      return
    }
    let path = linkTarget(of: path)
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
    guard !isStream(path) else { return }
    let (directory, name) = split(linkTarget(of: path))
    let prefix = "." + name + marker
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
    for entry in entries where entry.hasPrefix(prefix) {
      let rest = entry.dropFirst(prefix.count)
      guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }), pid > 0 else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + entry) }
    }
  }

  /// Whether `path` reaches (through symbolic links) something that exists and is neither a
  /// regular file nor a directory: a character device such as `/dev/stdout` or a terminal, a named
  /// pipe, a socket. A report is written to it once, at the end, never replaced or rewritten.
  public static func isStream(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let kind = info.st_mode & S_IFMT
    return (kind != S_IFREG && kind != S_IFDIR) || isDescriptorPath(path)
  }

  /// Whether `path` names one of the process's open descriptors — `/dev/stdout`, `/dev/stderr`,
  /// `/dev/fd/N`, `/proc/self/fd/N` — directly or through links. Those are streams even when the
  /// descriptor is a regular file (`> out.json`): the report is appended through the descriptor,
  /// where the shell's redirection points, not renamed over the file behind it.
  static func isDescriptorPath(_ path: String) -> Bool {
    linkChain(of: path).contains { current in
      current.hasPrefix("/dev/fd/") || current.hasPrefix("/proc/self/fd/") || current == "/dev/stdout"
        || current == "/dev/stderr"
    }
  }

  /// Where a report at `path` really goes: `path` itself, or, while it is a symbolic link, the
  /// path it points to (relative targets resolved against the link's directory), so that the new
  /// report replaces the file the link names and not the link.
  static func linkTarget(of path: String) -> String {
    linkChain(of: path).last ?? path
  }

  /// `path`, then each path its symbolic links lead to in turn (relative targets resolved against
  /// the link's directory), ending at the first that is not a link; at most 40 links are
  /// followed, as the kernel does.
  private static func linkChain(of path: String) -> [String] {
    var chain = [path]
    for _ in 0..<40 {
      let current = chain[chain.count - 1]
      var info = stat()
      guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
      else { break }
      chain.append(target.hasPrefix("/") ? target : split(current).directory + "/" + target)
    }
    return chain
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
