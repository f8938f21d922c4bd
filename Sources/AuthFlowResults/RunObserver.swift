/// Receives progress while a run goes on (the console's live output).
public protocol RunObserver: Sendable {
  func scenarioStarted(name: String, file: String) async
  func stepFinished(_ step: StepReport, scenario: String) async
  func scenarioFinished(_ report: ScenarioReport) async
}
