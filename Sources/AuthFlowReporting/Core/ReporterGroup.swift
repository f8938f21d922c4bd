public import AuthFlowResults

/// The reporters of one run, driven together.
public struct ReporterGroup: Sendable {
  public let reporters: [any Reporter]

  public init(_ reporters: [any Reporter]) {
    self.reporters = reporters
  }

  /// One observer that forwards to every reporter's live observer; nil when none has one.
  public var observer: (any RunObserver)? {
    let live = reporters.compactMap(\.observer)
    return live.isEmpty ? nil : ObserverFanOut(observers: live)
  }

  /// The live observers and `extra` (a ``ReportJournal``) together; nil when there are none.
  public func observer(adding extra: (any RunObserver)?) -> (any RunObserver)? {
    observer(adding: extra.map { [$0] } ?? [])
  }

  /// The live observers and `extras` (a ``ReportJournal``, a ``ProgressDisplay``) together; nil
  /// when there are none.
  public func observer(adding extras: [any RunObserver]) -> (any RunObserver)? {
    let live = reporters.compactMap(\.observer) + extras
    return live.isEmpty ? nil : ObserverFanOut(observers: live)
  }

  /// True when any reporter writes step results (see ``Reporter/needsStepResults``).
  public var needsStepResults: Bool { reporters.contains { $0.needsStepResults } }

  /// The reporters that write a file of their own, as ``ReportPathCheck`` checks them.
  public var fileTargets: [ReportPathCheck.Target] {
    reporters.compactMap { reporter in
      reporter.reportPath.map { .init(reporter: "\(type(of: reporter).description.name):\($0)", path: $0) }
    }
  }

  /// Checks every report path before the run; one message per problem (see ``ReportPathCheck``).
  public func checkReportPaths() -> [String] { ReportPathCheck.problems(fileTargets) }

  /// Tells every reporter the run started.
  public func runStarted(_ run: RunStart) async {
    for reporter in reporters { await reporter.runStarted(run) }
  }

  /// Lets every reporter write its output, even when one of them fails; then throws the failures
  /// together. Call it with the partial report too when the run was interrupted.
  public func finish(_ report: RunReport) async throws(ReportWriteError) {
    var failures: [ReportWriteError.Failure] = []
    for reporter in reporters {
      do {
        try await reporter.finish(report)
      } catch {
        failures.append(.init(reporter: type(of: reporter).description.name, message: "\(error)"))
      }
    }
    if !failures.isEmpty { throw ReportWriteError(failures: failures) }
  }
}

/// Forwards live progress to several observers, in order.
struct ObserverFanOut: RunObserver {
  let observers: [any RunObserver]

  func scenarioStarted(name: String, file: String) async {
    for observer in observers { await observer.scenarioStarted(name: name, file: file) }
  }

  func stepFinished(_ step: StepReport, scenario: String) async {
    for observer in observers { await observer.stepFinished(step, scenario: scenario) }
  }

  func scenarioFinished(_ report: ScenarioReport) async {
    for observer in observers { await observer.scenarioFinished(report) }
  }
}
