#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts a child process with `posix_spawn`: standard input from `/dev/null`, standard output and
/// error to files. The one place the project sets up a child's descriptors — chromium
/// (`ChromiumProcess`), the bench's child processes (`ChildProcess`) and the tests' (`SpawnedProcess`)
/// all start theirs here. (Foundation's `Process.run()` crashed a test process now and then while
/// hundreds of other tests held sockets; `posix_spawn` does not.)
public enum ProcessSpawn {
  /// How an output file is opened.
  public enum Mode: Sendable {
    /// Emptied first.
    case truncate
    /// Written at its end (several children, or a test that writes before).
    case append
  }

  /// Starts `executable` (an absolute path) with `arguments`. Standard output goes to `output`;
  /// standard error to `errors`, or to the same open file when `errors` is nil or equal to
  /// `output`. `environment` nil passes this process's own; `newProcessGroup` makes the child the
  /// leader of a group of its own (so that its children are stopped with it). Returns the child's
  /// PID, or `posix_spawn`'s error number.
  public static func start(
    _ executable: String, _ arguments: [String], output: String, errors: String? = nil, mode: Mode = .truncate,
    environment: [String: String]? = nil, newProcessGroup: Bool = false
  ) -> Result<Int32, SpawnError> {
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    let flags = O_WRONLY | O_CREAT | (mode == .append ? O_APPEND : O_TRUNC)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, flags, 0o600)
    if let errors, errors != output {
      posix_spawn_file_actions_addopen(&actions, 2, errors, flags, 0o600)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    if newProcessGroup {
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status: Int32
    if let environment {
      let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { for pointer in envp { free(pointer) } }
      status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    } else {
      status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    }
    return status == 0 ? .success(pid) : .failure(SpawnError(executable: executable, number: status))
  }

  /// Why a child could not be started.
  public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public var executable: String
    /// `posix_spawn`'s error number.
    public var number: Int32

    public var description: String { "could not start \(executable): \(String(cString: strerror(number)))" }
  }
}
