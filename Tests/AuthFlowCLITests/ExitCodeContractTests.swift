import AuthFlowCore
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The exit-code contract (README, docs/running.md), checked end to end on the built binary: the
/// verdicts, bad input, unwritable or clashing report paths, an unreachable tenant, signals and a
/// closed standard output — with the reports each case must leave behind (Issue 11).
@Suite(.serialized) struct ExitCodeContractTests {
  static let holds = """
    scenario: Holds
    steps:
      - id: remember
        set: { greeting: hello }
    """

  static let fails = """
    scenario: Does not hold
    steps:
      - id: check
        assert:
          that: ${{ 1 == 2 }}
    """

  static let bad = """
    scenario: Bad
    steps:
      - id: x
        no_such_action: 1
    """

  static let slow = """
    scenario: Slow
    steps:
      - id: started
        set: { x: 1 }
      - id: pause
        wait: 60s
    cleanup:
      - id: tidy
        set: { y: 1 }
    """

  /// Cleanup that outlasts the first signal, so that only a second one ends the run quickly.
  static let slowCleanup = """
    scenario: Slow cleanup
    steps:
      - id: pause
        wait: 60s
    cleanup:
      - id: linger
        wait: 60s
    """

  static let reporters = ["--reporter", "console", "--reporter", "junit:out/r.xml", "--reporter", "json:out/r.json"]

  @Test func allPassIsZero() async throws {
    try await Workspace.with(["a.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(["run", "a.yaml"] + Self.reporters, in: directory)
      #expect(outcome.status == 0, "\(outcome.standardError)")
      let json = try Workspace.json(directory + "/out/r.json")
      #expect(json.lookup(path: ["run", "interrupted"]) == false)
      #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
      #expect(try Workspace.xmlError(directory + "/out/r.xml") == nil)
      #expect(try Workspace.temporaries(in: directory + "/out").isEmpty)
    }
  }

  @Test func aFailedAssertionIsOne() async throws {
    try await Workspace.with(["a.yaml": Self.holds, "b.yaml": Self.fails]) { directory in
      let outcome = try await CLIProcess.run(["run", "a.yaml", "b.yaml"], in: directory)
      #expect(outcome.status == 1, "\(outcome.standardError)")
    }
  }

  /// A SHOULD that does not hold: a warning, so the run is green but says so.
  static let warns = """
    scenario: Only a SHOULD fails
    steps:
      - id: check
        severity: warning
        assert:
          that: ${{ 1 == 2 }}
          message: the provider does not do what it SHOULD
    """

  @Test func onlyWarningsIsZeroAndShowsThem() async throws {
    try await Workspace.with(["w.yaml": Self.warns]) { directory in
      let outcome = try await CLIProcess.run(["run", "w.yaml"] + Self.reporters, in: directory)
      #expect(outcome.status == 0, "\(outcome.standardError)")
      #expect(outcome.standardOutput.contains("⚠ 1 warning"), "\(outcome.standardOutput)")
      #expect(outcome.standardOutput.contains("the provider does not do what it SHOULD"))
      let json = try Workspace.json(directory + "/out/r.json")
      #expect(json.lookup(path: ["run", "counts", "warnings"]) == 1)
      #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
    }
    let strict = Self.warns.replacingOccurrences(of: "    severity: warning\n", with: "")
    #expect(strict != Self.warns)
    try await Workspace.with(["s.yaml": strict]) { directory in
      let outcome = try await CLIProcess.run(["run", "s.yaml"], in: directory)
      #expect(outcome.status == 1, "\(outcome.standardError)")
    }
  }

  @Test func aBadScenarioIsTwoWithItsLocation() async throws {
    try await Workspace.with(["bad.yaml": Self.bad]) { directory in
      let outcome = try await CLIProcess.run(["run", "bad.yaml"], in: directory)
      #expect(outcome.status == 2)
      #expect(outcome.standardError.contains("bad.yaml:4:5"), "\(outcome.standardError)")
    }
  }

  @Test(arguments: ["5/4", "0/4", "2"]) func aShardOutsideOneToNIsTwoBeforeAnythingRuns(_ shard: String) async throws {
    try await Workspace.with(["a.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(
        ["run", "a.yaml", "--shard", shard, "--reporter", "json:r.json"], in: directory)
      #expect(outcome.status == 2, "\(outcome.standardError)")
      #expect(outcome.standardError.contains("--shard must be K/N with 1 ≤ K ≤ N, e.g. 2/4 (got '\(shard)')"))
      #expect(!FileManager.default.fileExists(atPath: directory + "/r.json"), "nothing ran")
    }
  }

  @Test func anUnwritableReportPathIsTwoBeforeAnythingRuns() async throws {
    try await Workspace.with(["a.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(["run", "a.yaml", "--reporter", "junit:/proc/x/r.xml"], in: directory)
      #expect(outcome.status == 2)
      #expect(outcome.standardError.contains("reporter 'junit:/proc/x/r.xml'"), "\(outcome.standardError)")
      #expect(!outcome.standardOutput.contains("Running"))
    }
  }

  @Test func twoReportersOnOneFileIsTwo() async throws {
    try await Workspace.with(["a.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(
        ["run", "a.yaml", "--reporter", "junit:out/r.txt", "--reporter", "json:./out/../out/r.txt"], in: directory)
      #expect(outcome.status == 2)
      #expect(outcome.standardError.contains("would write the same file"), "\(outcome.standardError)")
      #expect(!outcome.standardOutput.contains("Running"))
    }
  }

  /// A report is rewritten as scenarios finish: written over a scenario file or `authflow.yaml`
  /// it destroyed the user's file, and the scenario, read again when it started, ended as an
  /// environment error with exit 3. It is refused before anything is written, the file intact.
  @Test func aReportOverAFileTheRunReadsIsTwoAndTheFileIsKept() async throws {
    try await Workspace.with(["a.yaml": Self.holds, "authflow.yaml": "tenants: { mock: { kind: mock } }\n"]) {
      directory in
      try FileManager.default.createSymbolicLink(atPath: directory + "/report.xml", withDestinationPath: "a.yaml")
      let cases: [(String, String)] = [
        ("junit:a.yaml", "reporter 'junit:a.yaml' would write over 'a.yaml'"),
        ("json:./x/../a.yaml", "would write over 'a.yaml'"),
        ("junit:report.xml", "reporter 'junit:report.xml' would write over 'a.yaml'"),
        ("html:authflow.yaml", "authflow.yaml', which this command reads"),
      ]
      for (reporter, message) in cases {
        let outcome = try await CLIProcess.run(["run", "a.yaml", "--reporter", reporter], in: directory)
        #expect(outcome.status == 2, "\(reporter): \(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(reporter): \(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("Running"))
      }
      #expect(try String(contentsOfFile: directory + "/a.yaml", encoding: .utf8) == Self.holds)
      let project = try String(contentsOfFile: directory + "/authflow.yaml", encoding: .utf8)
      #expect(project == "tenants: { mock: { kind: mock } }\n")
      let fine = try await CLIProcess.run(["run", "a.yaml", "--reporter", "junit:r.xml"], in: directory)
      #expect(fine.status == 0, "\(fine.standardError)")
    }
  }

  /// `json:/dev/stdout` writes the report to standard output once, at the end — not renamed over
  /// `/dev/stdout` (which, as root, replaced the system's link with a file), not rewritten as
  /// scenarios finish — and no spool is made in /dev.
  @Test func aReportToStandardOutputIsWrittenOnce() async throws {
    try await Workspace.with(["a.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(
        ["run", "a.yaml", "--quiet", "--reporter", "json:/dev/stdout"], in: directory)
      #expect(outcome.status == 0, "\(outcome.standardError)")
      let report = try Value(jsonText: outcome.standardOutput)
      #expect(report.lookup(path: ["run", "counts", "passed"]) == 1)
      var info = stat()
      #expect(lstat("/dev/stdout", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.contains("authflow") }
      #expect(leftovers.isEmpty, "\(leftovers)")
    }
  }

  /// An `authflow.yaml` with tenants but no `mock` and no `default_tenant`, run without
  /// `--tenant`, ran every scenario on the embedded mock and passed: the tenants the file was
  /// written for were never tested. It is exit 2, saying how to choose.
  @Test func aProjectWithoutDefaultTenantDoesNotFallBackToTheMock() async throws {
    let staging = "tenants:\n  staging: { kind: oidc, issuer: 'https://idp.example.com/' }\n"
    try await Workspace.with(["a.yaml": Self.holds, "authflow.yaml": staging]) { directory in
      let silent = try await CLIProcess.run(["run", "a.yaml"], in: directory)
      #expect(silent.status == 2, "\(silent.standardError)")
      #expect(
        silent.standardError.contains(
          "defines the tenants 'staging' and no default_tenant, so naming no tenant would use the embedded mock instead; "
            + "name one with --tenant staging"), "\(silent.standardError)")
      #expect(!silent.standardOutput.contains("Running"))
      let named = try await CLIProcess.run(["run", "a.yaml", "--tenant", "mock"], in: directory)
      #expect(named.status == 0, "\(named.standardError)")
      try ("default_tenant: mock\n" + staging).write(
        toFile: directory + "/authflow.yaml", atomically: true, encoding: .utf8)
      let chosen = try await CLIProcess.run(["run", "a.yaml"], in: directory)
      #expect(chosen.status == 0, "\(chosen.standardError)")
      try "tenants:\n  mock: { kind: mock }\n  legacy: { kind: mock }\n".write(
        toFile: directory + "/authflow.yaml", atomically: true, encoding: .utf8)
      let withMock = try await CLIProcess.run(["run", "a.yaml"], in: directory)
      #expect(withMock.status == 0, "\(withMock.standardError)")
      try staging.write(toFile: directory + "/authflow.yaml", atomically: true, encoding: .utf8)
      let doctor = try await CLIProcess.run(["doctor"], in: directory)
      #expect(doctor.status == 2, "\(doctor.standardError)")
      #expect(doctor.standardError.contains("name one with --tenant staging"), "\(doctor.standardError)")
    }
  }

  /// A scenario's `${{ env.NAME }}` whose variable the CI job did not export read as `null`, so a
  /// `not_equals` against it held and the run was green. A selected scenario that reads one
  /// (outside an `if:`, and not written to cope with its absence) is now exit 2 before anything
  /// runs, at its position; a scenario the selection leaves out does not count, nor one every
  /// tenant of the run skips before its first step (pinned elsewhere: it reads nothing).
  @Test func aSelectedScenarioReadingAnUnsetVariableIsTwo() async throws {
    let name = "AUTHFLOW_TEST_UNSET_\(UInt32.random(in: 0...UInt32.max))"
    let reads = """
      scenario: Reads the environment
      tags: [env]
      steps:
        - id: org
          set: { org: acme }
        - id: check
          assert:
            that: ${{ steps.org.org != env.\(name) }}
      """
    let optional = reads.replacingOccurrences(of: "env.\(name)", with: "default(env.\(name), 'acme')")
    let pinned = reads.replacingOccurrences(of: "tags: [env]", with: "tags: [env]\ntenant: other")
    let project = "default_tenant: mock\ntenants:\n  mock: { kind: mock }\n  other: { kind: mock }\n"
    try await Workspace.with([
      "a.yaml": Self.holds, "e.yaml": reads, "o.yaml": optional, "p.yaml": pinned, "authflow.yaml": project,
    ]) { directory in
      let skipped = try await CLIProcess.run(["run", "a.yaml", "p.yaml"], in: directory)
      #expect(skipped.status == 0, "pinned to 'other', skipped on 'mock': \(skipped.standardError)")
      #expect(skipped.standardOutput.contains("pinned to tenant 'other'"), "\(skipped.standardOutput)")
      let onOther = try await CLIProcess.run(["run", "p.yaml", "--tenant", "other"], in: directory)
      #expect(onOther.status == 2, "\(onOther.standardError)")
      let unset = try await CLIProcess.run(["run", "a.yaml", "e.yaml"], in: directory)
      #expect(unset.status == 2, "\(unset.standardError)")
      #expect(
        unset.standardError.contains("e.yaml:8:34: error: the scenario reads env.\(name), which is not set"),
        "\(unset.standardError)")
      #expect(unset.standardError.contains("default(env.\(name), '…')"), "\(unset.standardError)")
      #expect(!unset.standardOutput.contains("Running"), "nothing runs")
      let leftOut = try await CLIProcess.run(["run", "a.yaml", "e.yaml", "--skip-tag", "env"], in: directory)
      #expect(leftOut.status == 0, "\(leftOut.standardError)")
      let coping = try await CLIProcess.run(["run", "o.yaml"], in: directory)
      #expect(coping.status == 1, "default() reads 'acme', the assertion fails: \(coping.standardOutput)")
      let set = try await CLIProcess.run(
        ["\(name)=other", try CLIProcess.executable(), "run", "e.yaml"], in: directory, executable: "/usr/bin/env")
      #expect(set.status == 0, "\(set.standardError)")
    }
  }

  @Test func aReportThatCannotBeWrittenAtTheEndIsNotGreen() async throws {
    // Long enough that the directory is gone before the scenario ends, even on a loaded machine.
    let short = Self.slow.replacingOccurrences(of: "wait: 60s", with: "wait: 8s")
    try await Workspace.with(["s.yaml": short]) { directory in
      let child = try CLIProcess(try CLIProcess.executable(), ["run", "s.yaml"] + Self.reporters, in: directory)
      #expect(await child.waitForOutput(containing: "Running 1 scenario"))
      // The report directory turns into a file under the run's feet (root can write anywhere).
      try FileManager.default.moveItem(atPath: directory + "/out", toPath: directory + "/gone")
      try "not a directory".write(toFile: directory + "/out", atomically: false, encoding: .utf8)
      let outcome = await child.wait(limit: .seconds(180))
      #expect(outcome.status == 3, "\(outcome.standardError)")
      #expect(outcome.standardError.contains("could not write its output"), "\(outcome.standardError)")
    }
  }

  @Test func anUnreachableTenantIsThree() async throws {
    let port = try Workspace.closedPort()
    let config = """
      default_tenant: down
      tenants:
        down: { kind: oidc, issuer: "http://127.0.0.1:\(port)/" }
      """
    try await Workspace.with(["a.yaml": Self.holds, "authflow.yaml": config]) { directory in
      let outcome = try await CLIProcess.run(["run", "a.yaml", "--config", "authflow.yaml"], in: directory)
      #expect(outcome.status == 3, "\(outcome.standardError)")
    }
  }

  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
  func aSignalStopsTheRunWithReports(signal: Int32, code: Int32) async throws {
    try await Workspace.with(["a.yaml": Self.holds, "s.yaml": Self.slow]) { directory in
      let child = try CLIProcess(
        try CLIProcess.executable(), ["run", "a.yaml", "s.yaml", "--jobs", "1"] + Self.reporters, in: directory)
      #expect(await child.waitForOutput(containing: "✓ Holds"))
      try await Task.sleep(for: .milliseconds(500))
      child.send(signal)
      let outcome = await child.wait(limit: .seconds(30))
      #expect(outcome.status == code, "\(outcome.standardError)")
      #expect(outcome.wallTime < .seconds(30))
      let json = try Workspace.json(directory + "/out/r.json")
      #expect(json.lookup(path: ["run", "interrupted"]) == true)
      #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
      #expect(json.lookup(path: ["scenarios", "1", "status"]) == "interrupted")
      #expect(json.lookup(path: ["scenarios", "1", "steps", "1", "status"]) == "interrupted")
      #expect(json.lookup(path: ["scenarios", "1", "steps", "2", "status"]) == "passed")
      let xml = try String(contentsOfFile: directory + "/out/r.xml", encoding: .utf8)
      #expect(try Workspace.xmlError(directory + "/out/r.xml") == nil)
      #expect(xml.contains(#"type="interrupted""#))
      #expect(outcome.standardOutput.contains("⊘ Slow"))
    }
  }

  @Test func aSecondSignalExitsAtOnceWithReports() async throws {
    try await Workspace.with(["a.yaml": Self.holds, "s.yaml": Self.slowCleanup]) { directory in
      let child = try CLIProcess(
        try CLIProcess.executable(), ["run", "a.yaml", "s.yaml", "--jobs", "1"] + Self.reporters, in: directory)
      #expect(await child.waitForOutput(containing: "✓ Holds"))
      try await Task.sleep(for: .milliseconds(500))
      child.send(SIGINT)
      #expect(await child.waitForOutput(containing: "stopping"))
      try await Task.sleep(for: .milliseconds(300))
      let second = ContinuousClock.now
      child.send(SIGINT)
      let outcome = await child.wait(limit: .seconds(30))
      #expect(outcome.status == 130, "\(outcome.standardError)")
      #expect(ContinuousClock.now - second < .seconds(20))  // the cleanup would take 60 s
      let json = try Workspace.json(directory + "/out/r.json")
      #expect(json.lookup(path: ["run", "interrupted"]) == true)
      #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
      #expect(json.lookup(path: ["scenarios", "1", "status"]) == "interrupted")
      #expect(try Workspace.xmlError(directory + "/out/r.xml") == nil)
      #expect(try Workspace.temporaries(in: directory + "/out").isEmpty)
    }
  }

  @Test func killNineLeavesAValidReportAndNoTemporaries() async throws {
    try await Workspace.with(["a.yaml": Self.holds, "s.yaml": Self.slow]) { directory in
      let child = try CLIProcess(
        try CLIProcess.executable(), ["run", "a.yaml", "s.yaml", "--jobs", "1"] + Self.reporters, in: directory)
      #expect(await child.waitForOutput(containing: "✓ Holds"))
      try await Task.sleep(for: .milliseconds(2500))
      child.send(SIGKILL)
      let outcome = await child.wait(limit: .seconds(30))
      #expect(outcome.status == 128 + SIGKILL)
      let json = try Workspace.json(directory + "/out/r.json")
      #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
      #expect(json.lookup(path: ["scenarios", "1", "status"]) == "interrupted")
      #expect(try Workspace.xmlError(directory + "/out/r.xml") == nil)
      #expect(try Workspace.temporaries(in: directory + "/out").isEmpty)
    }
  }

  @Test func aClosedStandardOutputEndsTheRunQuietlyWithReports() async throws {
    let short = Self.slow.replacingOccurrences(of: "wait: 60s", with: "wait: 2s")
    try await Workspace.with(["a.yaml": Self.holds, "s.yaml": short, "z.yaml": Self.holds]) { directory in
      let command = #""$0" run a.yaml s.yaml z.yaml --jobs 1 "$@" | head -1 >/dev/null; exit "${PIPESTATUS[0]}""#
      let outcome = try await CLIProcess.run(
        ["-c", command, try CLIProcess.executable()] + Self.reporters, in: directory, executable: "/bin/bash")
      #expect(outcome.status == 141, "\(outcome.standardError)")
      #expect(!outcome.standardError.contains("Fatal error"), "\(outcome.standardError)")
      #expect(outcome.standardError.count < 200, "\(outcome.standardError)")
      let json = try Workspace.json(directory + "/out/r.json")
      #expect(json.lookup(path: ["run", "interrupted"]) == true)
      #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
      #expect(json.lookup(path: ["scenarios", "2", "status"]) == "interrupted")
      #expect(json.lookup(path: ["run", "stop_cause", "kind"]) == "closed_output")
      #expect(try Workspace.xmlError(directory + "/out/r.xml") == nil)
    }
  }

  /// `--run-timeout` stops the run as a first signal does — the running scenario cut short with its
  /// cleanup run, the one never started reported too, every report written — and exits 124. The
  /// wait step would take 60 s: the run ends because of the deadline, not because it finished.
  /// (10 s, so that a loaded machine still finishes the first scenario before it.)
  @Test func theRunTimeoutStopsTheRunWithReportsAndExits124() async throws {
    try await Workspace.with(["a.yaml": Self.holds, "s.yaml": Self.slow, "z.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(
        ["run", "a.yaml", "s.yaml", "z.yaml", "--jobs", "1", "--run-timeout", "10s"] + Self.reporters, in: directory)
      #expect(outcome.status == 124, "\(outcome.standardError)")
      #expect(outcome.standardError.contains("--run-timeout 10s passed: stopping"), "\(outcome.standardError)")
      let json = try Workspace.json(directory + "/out/r.json")
      #expect(json.lookup(path: ["run", "interrupted"]) == true)
      #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
      #expect(json.lookup(path: ["scenarios", "1", "status"]) == "interrupted")
      #expect(json.lookup(path: ["scenarios", "1", "steps", "1", "status"]) == "interrupted")
      #expect(json.lookup(path: ["scenarios", "1", "steps", "2", "status"]) == "passed")
      #expect(json.lookup(path: ["scenarios", "2", "status"]) == "interrupted")
      #expect(try Workspace.xmlError(directory + "/out/r.xml") == nil)
      // The report says what stopped the run, and the reasons name the deadline.
      #expect(
        json.lookup(path: ["run", "stop_cause"])
          == .object([
            "kind": "run_timeout", "signal": .null, "run_timeout": "10s", "description": "--run-timeout 10s passed",
          ]))
      #expect(
        json.lookup(path: ["scenarios", "1", "skip_reason"])
          == "the run's --run-timeout of 10s passed while this scenario was running")
      #expect(
        json.lookup(path: ["scenarios", "2", "skip_reason"])
          == "the run's --run-timeout of 10s passed before this scenario started")
      // The scenario never started lists its planned step, not run.
      #expect(json.lookup(path: ["scenarios", "2", "started"]) == false)
      #expect(json.lookup(path: ["scenarios", "2", "steps", "0", "id"]) == "remember")
      let xml = try String(contentsOfFile: directory + "/out/r.xml", encoding: .utf8)
      #expect(xml.contains("<!-- INTERRUPTED: the run was stopped by its run-timeout of 10s before every"))
      #expect(xml.contains(#"<property name="stop_cause" value="--run-timeout 10s passed"/>"#))
      #expect(outcome.standardOutput.contains("INTERRUPTED: the run was stopped by its --run-timeout of 10s"))
    }
  }

  /// A run that finishes before its `--run-timeout` keeps its own verdict.
  @Test func aRunThatFinishesInTimeKeepsItsVerdict() async throws {
    try await Workspace.with(["a.yaml": Self.holds, "b.yaml": Self.fails]) { directory in
      let passing = try await CLIProcess.run(["run", "a.yaml", "--run-timeout", "10m"], in: directory)
      #expect(passing.status == 0, "\(passing.standardError)")
      let failing = try await CLIProcess.run(["run", "a.yaml", "b.yaml", "--run-timeout", "10m"], in: directory)
      #expect(failing.status == 1, "\(failing.standardError)")
    }
  }

  @Test(arguments: ["0.5s", "169h", "soon", "-1s"])
  func aRunTimeoutOutsideItsRangeIsTwo(_ value: String) async throws {
    try await Workspace.with(["a.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(["run", "a.yaml", "--run-timeout=\(value)"], in: directory)
      #expect(outcome.status == 2, "\(outcome.standardError)")
      #expect(outcome.standardError.contains("--run-timeout must be a duration"), "\(outcome.standardError)")
    }
  }
}
