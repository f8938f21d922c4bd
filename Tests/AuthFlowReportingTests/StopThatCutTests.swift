import AuthFlowResults
import Foundation
import Testing

/// A stop decides the exit code only when it cut the run short: one that came once every
/// scenario had finished (a `--run-timeout` passing, or a first signal, while the reports were
/// written) stopped nothing, so the exit code must be the verdict the complete reports give —
/// fuzz/run found `exit 124` beside a report that said the run was whole.
@Suite struct StopThatCutTests {
  static func report(interrupted: Bool) -> RunReport {
    RunReport(
      tenant: "mock", startedAt: ReportFixtures.startedAt, duration: .seconds(8),
      scenarios: [ReportFixtures.loginWorks("alice", milliseconds: 12)], interrupted: interrupted)
  }

  @Test(arguments: [StopCause.runTimeout("15s"), .signal("SIGINT"), .signal("SIGTERM"), .closedOutput])
  func aStopAfterTheLastScenarioStopsNothing(_ cause: StopCause) {
    #expect(Self.report(interrupted: false).stop(thatCut: cause) == nil)
  }

  @Test(arguments: [StopCause.runTimeout("15s"), .signal("SIGINT"), .signal("SIGHUP"), .closedOutput])
  func aStopThatCutTheRunIsItsCause(_ cause: StopCause) {
    #expect(Self.report(interrupted: true).stop(thatCut: cause) == cause)
  }

  @Test func noStopIsNone() {
    #expect(Self.report(interrupted: true).stop(thatCut: nil) == nil)
    #expect(Self.report(interrupted: false).stop(thatCut: nil) == nil)
  }
}
