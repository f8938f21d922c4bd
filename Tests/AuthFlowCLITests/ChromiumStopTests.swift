import AuthFlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The built `authflow` with `browser: chromium`, stopped by signals: chromium (every process of
/// it) and its profile directory are gone when authflow has exited, whether the run ended, was
/// interrupted, or was stopped at once by a second signal.
@Suite(
  "chromium is stopped with the run", .serialized,
  .enabled(if: ChromiumCLI.available, "chromium is not installed (apt-get install chromium, or set AUTHFLOW_CHROMIUM)"))
struct ChromiumStopTests {
  static let browsing = """
    scenario: Chromium, then a long wait
    client: native
    steps:
      - id: page
        web_auth: { browser: chromium, stop_at: login }
      - id: hold
        wait: 60s
    """

  static let slowCleanup = """
    scenario: Chromium, then a long wait and a slow cleanup
    client: native
    steps:
      - id: page
        web_auth: { browser: chromium, stop_at: login }
      - id: hold
        wait: 60s
    cleanup:
      - id: linger
        wait: 60s
    """

  @Test("A run that ends normally leaves no chromium behind")
  func normalEnd() async throws {
    let scenario = Self.browsing.replacingOccurrences(of: "wait: 60s", with: "wait: 1s")
    try await BrowserTestLock.run {
      try await Workspace.with(["c.yaml": scenario]) { directory in
        let child = try CLIProcess(try CLIProcess.executable(), ["run", "c.yaml"], in: directory)
        let pid = child.pid
        let outcome = await child.wait(limit: .seconds(90))
        // The chromium step passed, so chromium ran.
        #expect(outcome.status == 0, "\(outcome.standardOutput)\n\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("✓ Chromium"))
        #expect(await ChromiumCLI.gone(of: pid), "chromium outlived authflow")
        #expect(ChromiumCLI.profiles(of: pid).isEmpty, "chromium's profile directory was left behind")
      }
    }
  }

  @Test("SIGINT stops the run (130) and chromium with it")
  func interrupted() async throws {
    try await BrowserTestLock.run {
      try await Workspace.with(["c.yaml": Self.browsing]) { directory in
        let child = try CLIProcess(try CLIProcess.executable(), ["run", "c.yaml"], in: directory)
        let pid = child.pid
        #expect(await ChromiumCLI.waitForChromium(of: pid), "chromium never started")
        try await Task.sleep(for: .milliseconds(500))
        child.send(SIGINT)
        let outcome = await child.wait(limit: .seconds(30))
        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(await ChromiumCLI.gone(of: pid), "chromium outlived authflow")
        #expect(ChromiumCLI.profiles(of: pid).isEmpty, "chromium's profile directory was left behind")
      }
    }
  }

  @Test("A second SIGINT exits at once and still kills chromium and removes its profile")
  func secondSignal() async throws {
    try await BrowserTestLock.run {
      try await Workspace.with(["c.yaml": Self.slowCleanup]) { directory in
        let child = try CLIProcess(try CLIProcess.executable(), ["run", "c.yaml"], in: directory)
        let pid = child.pid
        #expect(await ChromiumCLI.waitForChromium(of: pid), "chromium never started")
        try await Task.sleep(for: .milliseconds(500))
        child.send(SIGINT)
        #expect(await child.waitForOutput(containing: "stopping"))
        try await Task.sleep(for: .milliseconds(300))
        child.send(SIGINT)
        let outcome = await child.wait(limit: .seconds(30))
        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(await ChromiumCLI.gone(of: pid), "chromium outlived authflow")
        #expect(ChromiumCLI.profiles(of: pid).isEmpty, "chromium's profile directory was left behind")
      }
    }
  }
}

/// Finding the chromium an `authflow` process started: its profile directory is named
/// `authflow-chromium-<authflow's PID>-…` and appears on chromium's command line.
enum ChromiumCLI {
  static let available: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if let explicit = environment["AUTHFLOW_CHROMIUM"] { return FileManager.default.isExecutableFile(atPath: explicit) }
    let found = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { directory in
      ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"].contains {
        FileManager.default.isExecutableFile(atPath: "\(directory)/\($0)")
      }
    }
    if !found {
      FileHandle.standardError.write(Data("SKIPPING the chromium CLI tests: chromium is not installed\n".utf8))
    }
    return found
  }()

  static func marker(of pid: Int32) -> String { "authflow-chromium-\(pid)-" }

  /// The PIDs of live processes whose command line names the profile of `pid`'s chromium.
  static func processes(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { candidate in
      guard let data = FileManager.default.contents(atPath: "/proc/\(candidate)/cmdline") else { return false }
      let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
      guard line.contains(marker(of: pid)) else { return false }
      // A zombie already dead but not yet reaped by init does not count.
      let stat = (try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8)) ?? ""
      return !stat.contains(") Z ")
    }
  }

  /// The profile directories of `pid`'s chromium still on disk.
  static func profiles(of pid: Int32) -> [String] {
    let temporary = NSTemporaryDirectory()
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
    return entries.filter { $0.hasPrefix(marker(of: pid)) }
  }

  /// Waits (at most 60 s) until `pid` has started chromium; false at once when `pid` has exited.
  static func waitForChromium(of pid: Int32) async -> Bool {
    await Scoped.waitUntil(limit: .seconds(60), giveUp: { kill(pid, 0) != 0 }) { !processes(of: pid).isEmpty }
  }

  /// True once no process of `pid`'s chromium is alive. Its processes were killed when authflow
  /// exited; the init process reaps the helpers a moment later, so this looks a few times (at most
  /// 10 s) before saying no.
  static func gone(of pid: Int32) async -> Bool {
    await Scoped.waitUntil(limit: .seconds(10), every: .milliseconds(100)) { processes(of: pid).isEmpty }
  }
}
