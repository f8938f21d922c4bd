import AuthFlowCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program as a child process and reports what the benchmark needs of it: its exit
/// status, its wall time from spawn to exit, and its own peak resident memory.
///
/// `posix_spawn` and `wait4` rather than Foundation's `Process`: `wait4` returns the resource usage
/// of that one child, where `getrusage(RUSAGE_CHILDREN)` reports the largest of every child
/// waited for so far — a 1,000-scenario run measured after a 10,000-file validation would report
/// the validation's peak.
public struct ChildProcess: Sendable {
  /// How a child ended.
  public struct Outcome: Sendable {
    /// The exit code, or 128 + the signal number when a signal ended it.
    public var status: Int32
    /// From just before `posix_spawn` to `wait4` returning.
    public var wallTime: Duration
    /// The child's peak resident set size, in bytes.
    public var maxResidentBytes: Int
    /// The end of the child's standard error (for a failure's message).
    public var standardErrorTail: String
    /// The end of the child's standard output (for a failure's message).
    public var standardOutputTail: String
  }

  /// Why a child could not be run.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String

    static func spawn(_ executable: String, errno code: Int32) -> Failure {
      Failure(description: "could not start \(executable): \(String(cString: strerror(code)))")
    }

    static func wait(errno code: Int32) -> Failure {
      Failure(description: "waiting for the child failed: \(String(cString: strerror(code)))")
    }

    static func exited(_ outcome: Outcome, command: String) -> Failure {
      let tail = (outcome.standardOutputTail + "\n" + outcome.standardErrorTail)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      return Failure(
        description: "`\(command)` exited with status \(outcome.status)\(tail.isEmpty ? "" : ": \(tail)")")
    }
  }

  /// The program to run (an absolute path).
  public var executable: String
  /// Its arguments, without the program name.
  public var arguments: [String]

  public init(executable: String, arguments: [String]) {
    self.executable = executable
    self.arguments = arguments
  }

  /// The command line, for messages.
  public var commandLine: String { ([executable] + arguments).joined(separator: " ") }

  /// Runs the child to completion with standard input on `/dev/null` and its output in
  /// temporary files. Blocks the calling thread until the child exits.
  public func run() throws(Failure) -> Outcome {
    let stem = NSTemporaryDirectory() + "authflow-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let outputPath = stem + ".out"
    let errorPath = stem + ".err"
    defer {
      unlink(outputPath)
      unlink(errorPath)
    }

    let started = ContinuousClock.now
    let pid: pid_t
    switch ProcessSpawn.start(executable, arguments, output: outputPath, errors: errorPath) {
    case .success(let child): pid = child
    case .failure(let error): throw .spawn(executable, errno: error.number)
    }

    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw .wait(errno: errno) }
    }
    let wallTime = ContinuousClock.now - started

    let signal = status & 0x7f
    let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    #if canImport(Darwin)
      let maxResident = Int(usage.ru_maxrss)  // bytes
    #else
      let maxResident = Int(usage.ru_maxrss) * 1024  // kilobytes
    #endif
    return Outcome(
      status: exitStatus, wallTime: wallTime, maxResidentBytes: maxResident,
      standardErrorTail: Self.tail(of: errorPath), standardOutputTail: Self.tail(of: outputPath))
  }

  /// The last 600 characters of a file.
  private static func tail(of path: String) -> String {
    String(((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").suffix(600))
  }

  /// Runs the child and fails unless it exits with status 0.
  public func runSuccessfully() throws(Failure) -> Outcome {
    let outcome = try run()
    guard outcome.status == 0 else { throw .exited(outcome, command: commandLine) }
    return outcome
  }
}
