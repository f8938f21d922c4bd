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
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    if errors == output {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    }
    // posix_spawn_file_actions_addchdir_np is not in Swift's Glibc: a shell changes directory and
    // `exec`s the program, which keeps the PID.
    let command =
      directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] + arguments }
      ?? [executable] + arguments
    let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let variables = environment ?? ProcessInfo.processInfo.environment
    let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var child: Int32 = 0
    let spawned = posix_spawn(&child, command[0], &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw Failure(description: "could not start \(executable): \(String(cString: strerror(spawned)))")
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
