import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowReporting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Report files are replaced atomically and leave no temporaries; stale ones of dead runs go.
@Suite struct AtomicFileTests {
  static func directory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func replacesAndLeavesNoTemporary() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/r.xml"
    try AtomicFile.write("first", to: path)
    try AtomicFile.write("second", to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["r.xml"])
  }

  @Test func removesStaleTemporariesOfDeadProcessesOnly() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A pid far above any pid_max is never a live process; our own pid is.
    let stale = directory + "/.r.xml\(AtomicFile.marker)99999999-1"
    let live = directory + "/.r.xml\(AtomicFile.marker)\(getpid())-2"
    let other = directory + "/.other.xml\(AtomicFile.marker)99999999-3"
    for path in [stale, live, other] { _ = FileManager.default.createFile(atPath: path, contents: Data()) }
    AtomicFile.removeStaleTemporaries(beside: directory + "/r.xml")
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(FileManager.default.fileExists(atPath: other))
  }

  @Test func unwritablePathsAreFoundBeforeWriting() throws {
    #expect(throws: ReportFileError.self) { try AtomicFile.checkWritable("/proc/x/r.xml") }
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(throws: ReportFileError.self) { try AtomicFile.checkWritable(directory) }
    try AtomicFile.checkWritable(directory + "/new/r.xml")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/new").isEmpty)
  }

  @Test func reportPathCheckNamesTheReporter() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory)
    let problems = ReportPathCheck.problems([
      .init(reporter: "junit:/proc/x/r.xml", path: "/proc/x/r.xml"),
      .init(reporter: "junit:\(directory)/r.xml", path: "\(directory)/r.xml"),
      .init(reporter: "json:\(directory)/./sub/../r.xml", path: "\(directory)/./sub/../r.xml"),
      .init(reporter: "json:\(directory)/link/r.xml", path: "\(directory)/link/r.xml"),
      .init(reporter: "json:\(directory)/r.json", path: "\(directory)/r.json"),
    ])
    #expect(problems.count == 3)
    #expect(problems.first?.hasPrefix("reporter 'junit:/proc/x/r.xml' cannot write its report: ") == true)
    #expect(problems.dropFirst().allSatisfy { $0.contains("would write the same file") })
  }

  /// A report path that reaches an input — by its name, through `..`, through a symbolic link —
  /// is found by the file's identity; one that does not exist, or another file of the same name,
  /// is not.
  @Test func reportsOverInputsAreFoundByIdentity() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for name in ["a.yaml", "other/a.yaml"] {
      try FileManager.default.createDirectory(
        atPath: (directory + "/" + name as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("x".utf8)))
    }
    try FileManager.default.createSymbolicLink(atPath: directory + "/r.xml", withDestinationPath: directory + "/a.yaml")
    let targets: [ReportPathCheck.Target] = [
      .init(reporter: "junit:a", path: directory + "/a.yaml"),
      .init(reporter: "junit:b", path: directory + "/other/../a.yaml"),
      .init(reporter: "junit:c", path: directory + "/r.xml"),
      .init(reporter: "junit:d", path: directory + "/other/a.yaml"),
      .init(reporter: "junit:e", path: directory + "/new.xml"),
    ]
    let problems = ReportPathCheck.overwrittenInputs(targets, inputs: [directory + "/a.yaml", directory + "/b.yaml"])
    #expect(problems.count == 3, "\(problems)")
    for reporter in ["junit:a", "junit:b", "junit:c"] {
      #expect(problems.contains { $0.hasPrefix("reporter '\(reporter)' would write over '\(directory)/a.yaml'") })
    }
    #expect(ReportPathCheck.overwrittenInputs(targets, inputs: [String]()).isEmpty)
    // An input that is a link under another name (`login.yaml -> other/a.yaml`) is the file too.
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/login.yaml", withDestinationPath: directory + "/other/a.yaml")
    let linked = ReportPathCheck.overwrittenInputs(targets, inputs: [directory + "/login.yaml"])
    #expect(
      linked == [
        "reporter 'junit:d' would write over '\(directory)/login.yaml', which this command reads; give the report another path"
      ])
  }

  /// A report path that is a symbolic link keeps the link: the file it names is replaced, in its
  /// own directory, through a relative link and a chain of two.
  @Test func aSymbolicLinkIsWrittenThroughAndKept() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/runs", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: directory + "/latest.xml", withDestinationPath: "runs/42.xml")
    try FileManager.default.createSymbolicLink(atPath: directory + "/alias.xml", withDestinationPath: "latest.xml")
    try AtomicFile.write("first", to: directory + "/alias.xml")
    try AtomicFile.write("second", to: directory + "/latest.xml")
    #expect(try String(contentsOfFile: directory + "/runs/42.xml", encoding: .utf8) == "second")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/latest.xml") == "runs/42.xml")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/alias.xml") == "latest.xml")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/runs") == ["42.xml"])
  }

  /// Something other than a regular file — a device, a named pipe — is a stream: written to as
  /// is, never replaced (as root, a rename over `/dev/stdout` replaced the system's link with a
  /// file). A pipe nobody reads fails at once instead of blocking the run's end.
  @Test func aStreamIsWrittenToNotReplaced() async throws {
    #expect(AtomicFile.isStream("/dev/null"))
    #expect(!AtomicFile.isStream("/tmp"))
    #expect(!AtomicFile.isStream("/nonexistent/x"))
    try AtomicFile.checkWritable("/dev/null")
    try AtomicFile.write("report", to: "/dev/null")
    var info = stat()
    #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)

    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fifo = directory + "/pipe"
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(AtomicFile.isStream(fifo))
    #expect(throws: ReportFileError.self) { try AtomicFile.write("nobody reads", to: fifo) }
    let reader = Task.detached { () -> String? in
      let descriptor = open(fifo, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 256)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    // The reader opens the pipe when it is scheduled: retry until it has, for at most 10 s.
    let written = await Scoped.waitUntil(limit: .seconds(10)) { (try? AtomicFile.write("once", to: fifo)) != nil }
    if !written { close(open(fifo, O_RDWR | O_CLOEXEC)) }  // never leave the reader blocked
    #expect(written)
    #expect(await reader.value == (written ? "once" : ""))
  }
}
