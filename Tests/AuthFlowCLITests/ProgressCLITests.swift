import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The progress line of `authflow run` on the built binary: never without a terminal or with
/// `--quiet` / `--no-progress`; under a real pseudo-terminal (`script`, Debian's `bsdutils`) drawn
/// in place, never left in the middle of other output, and erased before the summary.
@Suite(.serialized) struct ProgressCLITests {
  static let waits = """
    scenario: Waits a moment
    steps:
      - id: pause
        wait: 2s
    """

  static let fails = """
    scenario: Does not hold
    steps:
      - id: pause
        wait: 200ms
      - id: check
        assert:
          that: ${{ 1 == 2 }}
    """

  static let files = ["a.yaml": waits, "b.yaml": fails]

  /// The bytes that only a status line writes.
  static func hasProgressBytes(_ text: String) -> Bool {
    text.contains("\r") || text.contains("\u{1B}") || text.contains(" done, ")
  }

  @Test func nothingWithoutATerminal() async throws {
    try await Workspace.with(Self.files) { directory in
      let outcome = try await CLIProcess.run(["run", "a.yaml", "b.yaml", "--jobs", "2"], in: directory)
      #expect(outcome.status == 1, "\(outcome.standardError)")
      #expect(!Self.hasProgressBytes(outcome.standardError), "\(outcome.standardError.debugDescription)")
      #expect(!Self.hasProgressBytes(outcome.standardOutput), "\(outcome.standardOutput.debugDescription)")
      #expect(outcome.standardOutput.contains("✓ Waits a moment"))
    }
  }

  @Test func quietPrintsTheSummaryOnly() async throws {
    try await Workspace.with(Self.files) { directory in
      let outcome = try await CLIProcess.run(["run", "a.yaml", "b.yaml", "--quiet"], in: directory)
      #expect(outcome.status == 1, "\(outcome.standardError)")
      #expect(!outcome.standardOutput.contains("✓ Waits a moment"))
      #expect(outcome.standardOutput.contains("Failures"))
      #expect(outcome.standardOutput.contains("✗ Does not hold"))
      #expect(outcome.standardOutput.contains("2 scenarios: 1 passed, 1 failed"))
    }
  }

  /// `script` (Debian's `bsdutils`, essential, so normally there), looked for on `PATH`; when it is
  /// missing the terminal tests are skipped and say so loudly, with the reason.
  static let script: String? = {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    let found = directories.map { "\($0)/script" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    if found == nil {
      FileHandle.standardError.write(Data("SKIPPING the progress line's terminal tests: \(scriptMissing)\n".utf8))
    }
    return found
  }()

  static let scriptMissing = "`script` is not installed, so no pseudo-terminal can be made (apt-get install bsdutils)"

  static var scriptAvailable: Bool { script != nil }

  /// The path of `script`; the tests that use it are enabled only when it is there.
  static func scriptPath() throws -> String {
    guard let script else { throw ScriptMissing() }
    return script
  }

  struct ScriptMissing: Error, CustomStringConvertible {
    var description: String { ProgressCLITests.scriptMissing }
  }

  /// `authflow ARGUMENTS` with standard output and error on a pseudo-terminal; what the terminal
  /// received, and the exit code (`script -e`).
  static func underTerminal(_ arguments: String, in directory: String) async throws -> CLIProcess.Outcome {
    let command = "'\(try CLIProcess.executable())' \(arguments)"
    return try await CLIProcess.run(
      ["-q", "-e", "-c", command, "/dev/null"], in: directory, executable: try Self.scriptPath())
  }

  /// Every line drawn (`\r` text `ESC[K`) is followed at once by the next draw or by the erase
  /// (`\r ESC[K`): no other output ever lands on the end of it.
  static func drawsAreNeverInterleaved(_ text: String) -> Bool {
    let scalars = Array(text.unicodeScalars)
    for index in scalars.indices
    where index >= 3 && scalars[index - 2] == "\u{1B}" && scalars[index - 1] == "["
      && scalars[index] == "K" && scalars[index - 3] != "\r"
    {
      guard index + 1 < scalars.count, scalars[index + 1] == "\r" else { return false }
    }
    return true
  }

  @Test(.enabled(if: scriptAvailable, Comment(rawValue: scriptMissing)))
  func drawnAndErasedOnATerminal() async throws {
    try await Workspace.with(Self.files) { directory in
      let outcome = try await Self.underTerminal("run a.yaml b.yaml --jobs 2", in: directory)
      let text = outcome.standardOutput
      #expect(outcome.status == 1, "\(text.debugDescription)")
      #expect(text.contains("\r1/2 done, 1 failed · running: Waits a moment\u{1B}[K"), "\(text.debugDescription)")
      #expect(Self.drawsAreNeverInterleaved(text), "\(text.debugDescription)")
      // The last draw is erased before the summary, and nothing is drawn after it.
      let lastDraw = try #require(text.range(of: " done, ", options: .backwards))
      let erase = try #require(text.range(of: "\r\u{1B}[K", options: .backwards))
      let summary = try #require(text.range(of: "2 scenarios: 1 passed, 1 failed"))
      #expect(lastDraw.upperBound < erase.lowerBound && erase.upperBound <= summary.lowerBound)
    }
  }

  @Test(.enabled(if: scriptAvailable, Comment(rawValue: scriptMissing)))
  func offOnATerminalWithNoProgressOrQuiet() async throws {
    try await Workspace.with(Self.files) { directory in
      for flag in ["--no-progress", "--quiet"] {
        let outcome = try await Self.underTerminal("run a.yaml b.yaml \(flag)", in: directory)
        #expect(outcome.status == 1, "\(flag): \(outcome.standardOutput.debugDescription)")
        #expect(!outcome.standardOutput.contains(" done, "), "\(flag): \(outcome.standardOutput.debugDescription)")
        #expect(!outcome.standardOutput.contains("\u{1B}[K"), "\(flag)")
        #expect(outcome.standardOutput.contains("2 scenarios: 1 passed, 1 failed"), "\(flag)")
      }
    }
  }

  /// Standard output closed (`| head -1`) while standard error is the terminal: the run stops
  /// (141) and the line it drew is erased. (What `head` echoes reaches the screen from another
  /// process, so its place relative to the line is not checked: docs/running.md.)
  @Test(.enabled(if: scriptAvailable, Comment(rawValue: scriptMissing)))
  func erasedWhenStandardOutputCloses() async throws {
    try await Workspace.with(Self.files) { directory in
      let binary = try CLIProcess.executable()
      let outcome = try await CLIProcess.run(
        ["-q", "-e", "-c", "bash -o pipefail -c \"'\(binary)' run a.yaml b.yaml --jobs 2 | head -1\"", "/dev/null"],
        in: directory, executable: try Self.scriptPath())
      let text = outcome.standardOutput
      #expect(outcome.status == 141, "\(text.debugDescription)")
      #expect(text.contains("Running 2 scenarios"), "\(text.debugDescription)")
      if let lastDraw = text.range(of: " done, ", options: .backwards) {
        let erase = try #require(text.range(of: "\r\u{1B}[K", options: .backwards))
        #expect(lastDraw.upperBound < erase.lowerBound)
      }
    }
  }

  static let slow = """
    scenario: Slow
    steps:
      - id: pause
        wait: 60s
    """

  /// SIGTERM while the line is on screen: the stop message and the interrupted summary are never
  /// written on the end of it, and it is erased before the summary.
  @Test(.enabled(if: scriptAvailable, Comment(rawValue: scriptMissing)))
  func erasedBeforeTheInterruptedSummary() async throws {
    try await Workspace.with(["slow.yaml": Self.slow, "a.yaml": Self.waits]) { directory in
      let binary = try CLIProcess.executable()
      // `exec` keeps the shell's PID, written first: the PID of authflow under the terminal.
      let command = "bash -c \"echo \\$$ > pid; exec '\(binary)' run slow.yaml a.yaml --jobs 2\""
      let child = try CLIProcess(try #require(Self.script), ["-q", "-e", "-c", command, "/dev/null"], in: directory)
      let drawn = await child.waitForOutput(containing: "1/2 done, 0 failed · running: Slow")
      let pid = Int32(
        (try? String(contentsOfFile: directory + "/pid", encoding: .utf8))?.trimmingCharacters(
          in: .whitespacesAndNewlines)
          ?? "")
      if drawn, let pid { kill(pid, SIGTERM) }
      let outcome = await child.wait()
      let text = outcome.standardOutput
      #expect(drawn && pid != nil, "\(text.debugDescription)")
      #expect(outcome.status == 143, "\(text.debugDescription)")
      #expect(text.contains("SIGTERM: stopping"), "\(text.debugDescription)")
      #expect(Self.drawsAreNeverInterleaved(text), "\(text.debugDescription)")
      let lastDraw = try #require(text.range(of: " done, ", options: .backwards))
      let erase = try #require(text.range(of: "\r\u{1B}[K", options: .backwards))
      let summary = try #require(text.range(of: "INTERRUPTED"))
      #expect(lastDraw.upperBound < erase.lowerBound && erase.upperBound <= summary.lowerBound)
    }
  }
}
