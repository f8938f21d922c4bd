import AuthFlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `authflow` executable run as a child process, as CI runs it: its exit code, its
/// output, and signals sent to it by PID. Every wait is bounded; a child that outlives its bound is
/// killed (by its PID) and the test fails.
struct CLIProcess {
  struct Outcome {
    /// The exit code, or 128 + the signal number when a signal ended the child.
    var status: Int32
    var standardOutput: String
    var standardError: String
    var wallTime: Duration
  }

  struct NotBuilt: Error, CustomStringConvertible {
    var description: String
  }

  /// `AUTHFLOW_BINARY`, else `authflow` beside the test bundle (`swift test` builds every product
  /// into the same directory, `.build/<triple>/debug`).
  static func executable() throws -> String {
    if let path = ProcessInfo.processInfo.environment["AUTHFLOW_BINARY"] { return path }
    var candidates: [URL] = []
    for bundle in Bundle.allBundles {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("authflow"))
    }
    if let argument = CommandLine.arguments.first {
      var url = URL(fileURLWithPath: argument).standardizedFileURL
      while url.path != "/" {
        url.deleteLastPathComponent()
        candidates.append(url.appendingPathComponent("authflow"))
        if url.lastPathComponent == "debug" || url.lastPathComponent == "release" { break }
      }
    }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        return candidate.path
      }
    }
    throw NotBuilt(description: "no built authflow beside the tests (run `swift build`, or set AUTHFLOW_BINARY)")
  }

  let process: SpawnedProcess
  let arguments: [String]
  let outputPath: String
  let errorPath: String
  let started = ContinuousClock.now

  /// Starts `executable arguments` in `directory`, standard output and error in files
  /// (`posix_spawn`, ``AuthFlowTestSupport/SpawnedProcess``).
  init(_ executable: String, _ arguments: [String], in directory: String) throws {
    outputPath = directory + "/.stdout-\(UUID().uuidString)"
    errorPath = directory + "/.stderr-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    self.arguments = arguments
    process = try SpawnedProcess(
      executable, arguments, directory: directory, environment: environment, output: outputPath, errors: errorPath)
  }

  var pid: Int32 { process.pid }

  /// Sends `signal` to the child, by its PID.
  func send(_ signal: Int32) { kill(pid, signal) }

  /// Waits until the standard output or error contains `text`, at most `limit`.
  func waitForOutput(containing text: String, limit: Duration = .seconds(60)) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if read(outputPath).contains(text) || read(errorPath).contains(text) { return true }
      if !process.isRunning { return false }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  /// Waits for the child to exit, at most `limit`; past it, kills it (SIGKILL, by PID) and records
  /// an issue.
  func wait(limit: Duration = .seconds(120)) async -> Outcome {
    var status = await process.wait(limit: limit)
    if status == nil {
      Issue.record("authflow \(arguments) did not exit within \(limit); killing it")
      kill(pid, SIGKILL)
      status = await process.wait(limit: .seconds(30))
    }
    let wallTime = ContinuousClock.now - started
    defer {
      unlink(outputPath)
      unlink(errorPath)
    }
    return Outcome(
      status: status ?? 137, standardOutput: read(outputPath), standardError: read(errorPath), wallTime: wallTime)
  }

  private func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  /// Runs `authflow` (or `executable`) to completion.
  static func run(
    _ arguments: [String], in directory: String, limit: Duration = .seconds(120), executable: String? = nil
  ) async throws -> Outcome {
    try await CLIProcess(try executable ?? Self.executable(), arguments, in: directory).wait(limit: limit)
  }
}
