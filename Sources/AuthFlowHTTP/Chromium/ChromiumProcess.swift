import AuthFlowCore
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One headless chromium started by this process: its own process group (so its helper
/// processes stop with it), a fresh profile in a temporary directory, and the DevTools endpoint it
/// opened on a loopback port it chose (`--remote-debugging-port=0`, read from
/// `DevToolsActivePort`). Its output goes to a file in that directory, never to the console.
struct ChromiumProcess: Sendable {
  /// The process (and process group) id.
  var pid: pid_t
  /// The profile directory, removed by ``stop(grace:)``.
  var directory: String
  var port: Int
  /// `/devtools/browser/<id>`.
  var browserPath: String
  var executable: String

  /// The command names looked for on `PATH` when `AUTHFLOW_CHROMIUM` is not set.
  static let commandNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

  /// Debian's chromium binary (what its `/usr/bin/chromium` script runs).
  static let debianBinary = "/usr/lib/chromium/chromium"

  /// The chromium to run: `AUTHFLOW_CHROMIUM`, else the first of ``commandNames`` on `PATH` —
  /// where that is Debian's `chromium` and its browser binary is there, the binary itself.
  /// The one locator of the project: the runner, `authflow doctor` and the tests' headless checks
  /// all find chromium here.
  static func locate(environment: [String: String]) throws(ChromiumError) -> String {
    let manager = FileManager.default
    if let explicit = environment["AUTHFLOW_CHROMIUM"], !explicit.isEmpty {
      guard manager.isExecutableFile(atPath: explicit) else {
        throw ChromiumError(message: ChromiumMessages.notExecutable(explicit))
      }
      return explicit
    }
    let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for name in commandNames {
      for directory in directories {
        let path = "\(directory)/\(name)"
        guard manager.isExecutableFile(atPath: path) else { continue }
        // Debian's /usr/bin/chromium is a shell script that runs helpers before it execs the
        // browser: the browser itself starts faster and is the process authflow started.
        if name == "chromium", manager.isExecutableFile(atPath: debianBinary) { return debianBinary }
        return path
      }
    }
    throw ChromiumError(message: ChromiumMessages.notFound(searched: commandNames))
  }

  /// The arguments: headless, no first-run UI, no background traffic of its own, a fresh profile,
  /// DevTools on a loopback port of its choosing. `--no-sandbox` only when running as root
  /// (chromium refuses to start as root otherwise: containers and CI).
  static func arguments(directory: String) -> [String] {
    var arguments = [
      "--headless", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
      "--user-data-dir=\(directory)", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
      "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-default-apps", "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain",
      "--mute-audio", "about:blank",
    ]
    if geteuid() == 0 { arguments.insert("--no-sandbox", at: 0) }
    return arguments
  }

  /// Starts chromium and waits, at most `timeout`, for its DevTools port.
  static func launch(executable: String, timeout: Duration) async throws(ChromiumError) -> ChromiumProcess {
    let directory = NSTemporaryDirectory() + "authflow-chromium-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    } catch {
      throw ChromiumError(message: ChromiumMessages.spawnFailed(executable, reason: "\(error)"))
    }
    let logPath = directory + "/chromium.log"
    let arguments = arguments(directory: directory)
    guard
      let started = LaunchedProcesses.spawnTracked(
        directory: directory,
        {
          var pid: pid_t = 0
          return (spawn(executable, arguments: arguments, log: logPath, pid: &pid), pid)
        })
    else {
      try? FileManager.default.removeItem(atPath: directory)
      throw ChromiumError(message: ChromiumMessages.stopped)
    }
    let (spawned, pid) = started
    guard spawned == 0 else {
      try? FileManager.default.removeItem(atPath: directory)
      throw ChromiumError(
        message: ChromiumMessages.spawnFailed(executable, reason: String(cString: strerror(spawned))))
    }
    var process = ChromiumProcess(pid: pid, directory: directory, port: 0, browserPath: "", executable: executable)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      if let endpoint = activePort(in: directory) {
        (process.port, process.browserPath) = endpoint
        return process
      }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        LaunchedProcesses.remove(pid)
        let output = Self.tail(of: logPath)
        try? FileManager.default.removeItem(atPath: directory)
        throw ChromiumError(
          message: ChromiumMessages.exitedAtLaunch(executable, status: (status >> 8) & 0xff, output: output))
      }
      if clock.now >= deadline || Task.isCancelled {
        let output = Self.tail(of: logPath)
        await process.stop(grace: .seconds(2))
        throw ChromiumError(message: ChromiumMessages.noDevToolsPort(executable, within: timeout, output: output))
      }
      try? await Task.sleep(for: .milliseconds(50))
    }
  }

  /// Stops chromium: SIGTERM to its process group, then SIGKILL after `grace`; reaps it and
  /// removes its profile directory.
  func stop(grace: Duration) async {
    kill(-pid, SIGTERM)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: grace)
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      if clock.now >= deadline {
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        break
      }
      try? await Task.sleep(for: .milliseconds(25))
    }
    // Helpers that outlived the browser process (they share its group); once killed, the init
    // process reaps them (they are no longer authflow's children).
    kill(-pid, SIGKILL)
    kill(pid, SIGKILL)
    _ = waitpid(pid, &status, WNOHANG)
    LaunchedProcesses.remove(pid)
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// `DevToolsActivePort`: the port on the first line, the browser endpoint's path on the second.
  static func activePort(in directory: String) -> (Int, String)? {
    guard let text = try? String(contentsOfFile: directory + "/DevToolsActivePort", encoding: .utf8) else {
      return nil
    }
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    guard lines.count >= 2, let port = Int(lines[0]), (1...65_535).contains(port), lines[1].hasPrefix("/devtools/")
    else { return nil }
    return (port, lines[1])
  }

  /// The end of chromium's own output, for a launch failure's message.
  private static func tail(of path: String) -> String {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return String(text.suffix(400)).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Started in a new process group (its renderers stopped with it), standard input from
  /// `/dev/null`, output and errors to `log` (``AuthFlowCore/ProcessSpawn``). `posix_spawn`'s status.
  private static func spawn(_ executable: String, arguments: [String], log: String, pid: inout pid_t) -> Int32 {
    switch ProcessSpawn.start(executable, arguments, output: log, newProcessGroup: true) {
    case .success(let started):
      pid = started
      return 0
    case .failure(let error): return error.number
    }
  }
}

/// The process groups of every chromium this process started and has not stopped yet, with their
/// profile directories, so that an immediate exit (a second Ctrl-C) can still kill them and remove
/// the directories.
public enum LaunchedProcesses {
  private struct State {
    var groups: [pid_t: String] = [:]
    /// Set by ``killAll()``: no chromium starts after it.
    var closed = false
  }

  private static let state = Mutex(State())

  /// Runs `spawn` (which returns `posix_spawn`'s status and the PID) and records the process, under
  /// the lock ``killAll()`` takes: a chromium is either recorded (and killed by it) or never
  /// started. Nil after ``killAll()``.
  static func spawnTracked(
    directory: String, _ spawn: () -> (status: Int32, pid: pid_t)
  ) -> (status: Int32, pid: pid_t)? {
    state.withLock { state in
      guard !state.closed else { return nil }
      let result = spawn()
      if result.status == 0 { state.groups[result.pid] = directory }
      return result
    }
  }

  static func remove(_ pid: pid_t) {
    state.withLock { _ = $0.groups.removeValue(forKey: pid) }
  }

  /// SIGKILL to one process group still recorded, its profile directory removed (a host that goes
  /// away without ``ChromiumHost/shutdown()``); blocks the calling thread at most a second.
  static func killGroup(_ pid: pid_t) {
    guard let directory = state.withLock({ $0.groups.removeValue(forKey: pid) }) else { return }
    kill(-pid, SIGKILL)
    var status: Int32 = 0
    for _ in 0..<40 where waitpid(pid, &status, WNOHANG) == 0 { usleep(25_000) }
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The process groups still running.
  public static var running: [Int32] {
    state.withLock { Array($0.groups.keys) }
  }

  /// SIGKILL to every process group still running, waiting (at most a second) for them to go,
  /// then their profile directories removed. Blocks the calling thread: for the last moments
  /// before an immediate exit.
  public static func killAll() {
    let all = state.withLock { state in
      defer { state.groups.removeAll() }
      state.closed = true
      return state.groups
    }
    for pid in all.keys { kill(-pid, SIGKILL) }
    for (pid, directory) in all {
      var status: Int32 = 0
      // Reaped within 3 s even on a loaded machine; a helper still dying may write into the
      // profile after a first removal, so it is removed until it stays gone (at most 1 s more).
      for _ in 0..<120 where waitpid(pid, &status, WNOHANG) == 0 { usleep(25_000) }
      for _ in 0..<10 {
        try? FileManager.default.removeItem(atPath: directory)
        usleep(100_000)
        if !FileManager.default.fileExists(atPath: directory) { break }
      }
    }
  }
}
