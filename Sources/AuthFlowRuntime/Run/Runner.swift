import AuthFlowCore
public import AuthFlowExpression
public import AuthFlowResults
public import AuthFlowScenario
import Foundation

/// Runs scenario instances against one tenant, `jobs` at a time, and produces the run report.
///
/// A scenario with a `mock_clock` step runs alone (see ``ScenarioInstance/movesMockClock``): the
/// others run first, concurrently; then each clock-moving scenario, one at a time, with the mock's
/// clock put back after each.
///
/// Cancelling the task that calls `run` (Ctrl-C) stops scheduling: running scenarios see the
/// cancellation, their cleanup still runs, they and the scenarios not yet started are reported as
/// interrupted, and the report is marked interrupted — reporters still write it.
public struct Runner: Sendable {
  public var tenant: TenantContext
  public var services: RunServices
  public var functions: FunctionRegistry
  public var jobs: Int
  public var observer: (any RunObserver)?
  /// When false, each scenario's step results are dropped from the run report as it finishes
  /// (the observer has seen them already): no reporter of the run writes them.
  public var keepsStepResults: Bool

  public init(
    tenant: TenantContext, services: RunServices, functions: FunctionRegistry, jobs: Int,
    observer: (any RunObserver)? = nil, keepsStepResults: Bool = true
  ) {
    self.tenant = tenant
    self.services = services
    self.functions = functions
    self.jobs = max(1, jobs)
    self.observer = observer
    self.keepsStepResults = keepsStepResults
  }

  /// Runs instances already in memory.
  public func run(_ instances: [ScenarioInstance]) async -> RunReport {
    await run(instances.map { PlannedInstance($0) })
  }

  /// Runs the planned instances, loading each (``InstanceLoading``) when its turn comes.
  public func run(_ instances: [PlannedInstance]) async -> RunReport {
    let startedAt = Date()
    let started = ContinuousClock.now
    let interpreter = ScenarioInterpreter(tenant: tenant, services: services, functions: functions, observer: observer)
    let loading = InstanceLoading(functions: functions)
    let observer = self.observer
    /// Loads the instance and runs it; a file changed since validation is reported as an error.
    @Sendable func loadAndRun(_ planned: PlannedInstance) async -> ScenarioReport {
      switch loading.instance(planned) {
      case .success(let instance): return await interpreter.run(instance)
      case .failure(let error):
        await observer?.scenarioStarted(name: planned.name, file: planned.file)
        await observer?.scenarioFinished(error.report)
        return error.report
      }
    }
    var reports = [ScenarioReport?](repeating: nil, count: instances.count)
    // Scenarios moving the mock's clock run alone, after the others (reports keep the given order).
    let exclusive = instances.map(\.movesMockClock)
    let order = instances.indices.filter { !exclusive[$0] } + instances.indices.filter { exclusive[$0] }
    let clock = MockClockRestore(tenant: tenant, transport: services.transport)
    await withTaskGroup(of: (Int, ScenarioReport).self) { group in
      var next = 0
      var running = 0
      var exclusiveRunning = false
      while next < order.count || running > 0 {
        while next < order.count, running < jobs, !exclusiveRunning, !Task.isCancelled {
          let index = order[next]
          let instance = instances[index]
          if exclusive[index] {
            guard running == 0 else { break }
            exclusiveRunning = true
            group.addTask {
              let before = await clock?.offset()
              let report = await loadAndRun(instance)
              if let clock, let before { await clock.restore(to: before) }
              return (index, report)
            }
          } else {
            group.addTask { (index, await loadAndRun(instance)) }
          }
          next += 1
          running += 1
        }
        guard let (index, report) = await group.next() else { break }
        reports[index] = keepsStepResults ? report : report.droppingStepResults()
        running -= 1
        if exclusive[index] { exclusiveRunning = false }
        if Task.isCancelled && running == 0 { break }
      }
    }
    let interrupted = Task.isCancelled || reports.contains { $0 == nil }
    let cause = interrupted ? services.stops.cause : nil
    var notStarted = NotStartedReports(loading: loading, cause: cause)
    let complete = zip(instances, reports).map { instance, report in
      report ?? notStarted.report(instance)
    }
    return RunReport(
      tenant: tenant.name, startedAt: startedAt, duration: ContinuousClock.now - started, scenarios: complete,
      interrupted: interrupted, stopCause: cause)
  }
}
