import Foundation
import Testing

/// `authflow monitor` and `--otlp-endpoint` as a user types them: usage errors exit 2 naming the
/// flag and its range, before anything runs.
@Suite struct MonitorCLITests {
  static let holds = """
    scenario: Holds
    steps:
      - id: a
        assert: { that: "${{ true }}" }
    """

  @Test(arguments: [
    (["monitor", "--interval", "0s"], "--interval must be a duration from 1s to 24h"),
    (["monitor", "--jitter", "60"], "--jitter must be from 0 to 50"),
    (["monitor", "--concurrency", "0"], "--concurrency must be from 1 to 64"),
    (["monitor", "--listen", "nowhere"], "--listen must be HOST:PORT"),
    (["monitor", "--grace", "2h"], "--grace must be a duration from 0s to 10m"),
    (["monitor", "--otlp-endpoint", "ftp://collector"], "--otlp-endpoint must be an http:// or https:// URL"),
    (["run", "a.yaml", "--otlp-endpoint", "collector:4318"], "--otlp-endpoint must be an http:// or https:// URL"),
    (["bench", "--only", "soak", "--soak-duration", "1s"], "--soak-duration must be a duration from 10s to 24h"),
  ])
  func aFlagOutOfItsRangeIsAUsageError(_ arguments: [String], _ message: String) async throws {
    try await Workspace.with(["a.yaml": Self.holds]) { directory in
      let outcome = try await CLIProcess.run(arguments, in: directory)
      #expect(outcome.status == 2, "\(outcome.standardError)")
      #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }
  }

  /// An invalid scenario set exits 2 with its located diagnostics, and nothing listens.
  @Test func anInvalidSetExitsTwoBeforeServing() async throws {
    try await Workspace.with(["a.yaml": "scenario: x\nsteps: 3\n"]) { directory in
      let outcome = try await CLIProcess.run(["monitor", ".", "--listen", "127.0.0.1:0"], in: directory)
      #expect(outcome.status == 2, "\(outcome.standardError)")
      #expect(outcome.standardError.contains("a.yaml:2"), "\(outcome.standardError)")
      #expect(outcome.standardOutput.isEmpty)
    }
  }
}
