/// Receives progress while a run goes on (the console's live output, the progress line, the
/// report journal).
///
/// Every scenario the run reaches ends with ``scenarioFinished(_:)``; one that ran also started
/// with ``scenarioStarted(name:file:)``. A scenario skipped before its first step (a capability
/// the tenant lacks, another tenant, no chromium) is only finished — its report has
/// ``ScenarioReport/started`` false — so that counts of finished scenarios reach the total.
/// Scenarios a stopped run never reached are in the run's report, not seen here.
public protocol RunObserver: Sendable {
  func scenarioStarted(name: String, file: String) async
  func stepFinished(_ step: StepReport, scenario: String) async
  func scenarioFinished(_ report: ScenarioReport) async
}
