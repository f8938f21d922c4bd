import AuthFlowCore
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with `posix_spawn`, for the tests that run the `authflow` binary or
/// python: Foundation's `Process.run()` crashed the whole test process now and then (a bad pointer
/// in its `memmove`, while hundreds of other tests held sockets), which `posix_spawn` does not.
/// Standard input is `/dev/null`; standard output and error go to the files given.
public final class SpawnedProcess: Sendable {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let pid: Int32
  private let ended = Mutex<Int32?>(nil)

  /// Starts `executable` (an absolute path) with `arguments`, in `directory` when given, with
  /// `environment` (the test process's when nil), output to `output` and errors to `errors`
  /// (the same path for both is allowed: they are then one file).
  public init(
    _ executable: String, _ arguments: [String], directory: String? = nil, environment: [String: String]? = nil,
    output: String, errors: String
  ) throws(Failure) {
    // posix_spawn_file_actions_addchdir_np is not in Swift's Glibc: a shell changes directory and
    // `exec`s the program, which keeps the PID.
    let command =
      directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] + arguments }
      ?? [executable] + arguments
    let child: Int32
    switch ProcessSpawn.start(
      command[0], Array(command.dropFirst()), output: output, errors: errors, mode: .append,
      environment: environment ?? ProcessInfo.processInfo.environment)
    {
    case .success(let started): child = started
    case .failure(let error):
      throw Failure(description: "could not start \(executable): \(String(cString: strerror(error.number)))")
    }
    pid = child
  }

  /// The exit code (128 + the signal's number when a signal ended it), once the child has ended.
  public var status: Int32? {
    ended.withLock { status in
      if status == nil {
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = Self.decode(raw) }
      }
      return status
    }
  }

  public var isRunning: Bool { status == nil }

  /// Waits for the child to end (polling, so that no thread blocks in `waitpid`), at most
  /// `limit`; nil when it is still running then.
  public func wait(limit: Duration = .seconds(600)) async -> Int32? {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if let status { return status }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return status
  }

  /// The same, blocking the calling thread.
  public func waitBlocking(limit: Duration = .seconds(600)) -> Int32? {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if let status { return status }
      usleep(20_000)
    }
    return status
  }

  /// Sends `signal` to the child.
  public func send(_ signal: Int32) { kill(pid, signal) }

  private static func decode(_ raw: Int32) -> Int32 {
    let signal = raw & 0x7f
    return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
  }
}
