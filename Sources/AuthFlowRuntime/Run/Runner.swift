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
  /// Where each finished scenario's report goes instead of memory (``ScenarioSpool``), at
  /// position ``spoolBase`` plus its index; nil keeps the reports in memory (tests, the bench's
  /// in-process rig). With a spool the runner holds no report: the run report reads them back.
  public var spool: ScenarioSpool?
  /// This runner's first position in ``spool`` (a comparison run puts its tenants one after another).
  public var spoolBase: Int

  public init(
    tenant: TenantContext, services: RunServices, functions: FunctionRegistry, jobs: Int,
    observer: (any RunObserver)? = nil, keepsStepResults: Bool = true, spool: ScenarioSpool? = nil,
    spoolBase: Int = 0
  ) {
    self.tenant = tenant
    self.services = services
    self.functions = functions
    self.jobs = max(1, jobs)
    self.observer = observer
    self.keepsStepResults = keepsStepResults
    self.spool = spool
    self.spoolBase = spoolBase
  }

  /// Runs instances already in memory.
  public func run(_ instances: [ScenarioInstance]) async -> RunReport {
    await run(PlannedInstances(instances.map { PlannedInstance($0) }))
  }

  /// Runs the planned instances, loading each (``InstanceLoading``) when its turn comes.
  public func run(_ instances: PlannedInstances) async -> RunReport {
    let startedAt = Date()
    let started = ContinuousClock.now
    let interpreter = ScenarioInterpreter(tenant: tenant, services: services, functions: functions, observer: observer)
    let loading = InstanceLoading(functions: functions, capacity: max(ParsedFiles.defaultCapacity, 2 * jobs))
    let (observer, spool, base) = (self.observer, self.spool, spoolBase)
    /// Loads the instance and runs it; a file changed since validation is reported as an error.
    /// With a spool, the report is spooled before the observers hear of it (the journal then
    /// finds it there).
    @Sendable func loadAndRun(_ planned: PlannedInstance, index: Int) async -> ScenarioReport {
      var interpreter = interpreter
      if let spool { interpreter.observer = SpoolingObserver(base: observer, spool: spool, position: base + index) }
      switch loading.instance(planned) {
      case .success(let instance):
        // A scenario skipped before it started is observed too (finished, never started): the
        // spooling observer has stored every report.
        return await interpreter.run(instance)
      case .failure(let error):
        await observer?.scenarioStarted(name: planned.name, file: planned.file)
        spool?.store(error.report, at: base + index)
        await observer?.scenarioFinished(error.report)
        return error.report
      }
    }
    // Without a spool, the reports are kept here until the run ends.
    var reports = [ScenarioReport?](repeating: nil, count: spool == nil ? instances.count : 0)
    // Scenarios moving the mock's clock run alone, after the others (reports keep the given order).
    var order = RunOrder(instances)
    let clock = MockClockRestore(tenant: tenant, transport: services.transport)
    await withTaskGroup(of: (Int, ScenarioReport?).self) { group in
      var running = 0
      var exclusiveRunning = false
      while order.peek() != nil || running > 0 {
        while let index = order.peek(), running < jobs, !exclusiveRunning, !Task.isCancelled {
          let instance = instances[index]
          spool?.started(at: base + index)
          let keeps = spool == nil
          let exclusive = order.isExclusive
          if exclusive {
            guard running == 0 else { break }
            exclusiveRunning = true
            group.addTask {
              let before = await clock?.offset()
              let report = await loadAndRun(instance, index: index)
              if let clock, let before { await clock.restore(to: before) }
              return (index, keeps ? report : nil)
            }
          } else {
            group.addTask {
              let report = await loadAndRun(instance, index: index)
              return (index, keeps ? report : nil)
            }
          }
          order.advance()
          running += 1
        }
        guard let (index, report) = await group.next() else { break }
        if let report { reports[index] = keepsStepResults ? report : report.droppingStepResults() }
        running -= 1
        if instances.movesMockClock(at: index) { exclusiveRunning = false }
        if Task.isCancelled && running == 0 { break }
      }
    }
    let duration = ContinuousClock.now - started
    if let spool {
      let positions = base..<(base + instances.count)
      let interrupted = Task.isCancelled || spool.storedCount(in: positions) < instances.count
      let cause = interrupted ? services.stops.cause : nil
      if interrupted {
        // The scenarios never started get their planned steps (read from their files, within
        // NotStartedReports' budget) and go to the spool like the others: nothing is held here.
        // Past the budget the spool's fallback makes the same report (no steps) when it is read.
        var notStarted = NotStartedReports(loading: loading, cause: cause)
        for index in 0..<instances.count where spool.storedCount(in: (base + index)..<(base + index + 1)) == 0 {
          let planned = instances[index]
          guard planned.loaded != nil || !notStarted.budgetSpent else { continue }
          spool.store(notStarted.report(planned), at: base + index)
        }
      }
      let scenarios = spool.reports(in: positions) { position, _ in
        instances[position - base].notRun(cause: cause)
      }
      return RunReport(
        tenant: tenant.name, startedAt: startedAt, duration: duration, scenarios: scenarios, interrupted: interrupted,
        stopCause: cause)
    }
    let interrupted = Task.isCancelled || reports.contains { $0 == nil }
    let cause = interrupted ? services.stops.cause : nil
    var notStarted = NotStartedReports(loading: loading, cause: cause)
    let complete = zip(instances, reports).map { instance, report in
      report ?? notStarted.report(instance)
    }
    return RunReport(
      tenant: tenant.name, startedAt: startedAt, duration: duration, scenarios: complete, interrupted: interrupted,
      stopCause: cause)
  }

  /// A scenario the run was stopped before: `interrupted`, with a reason that says it never started.
  public static func notRun(_ instance: ScenarioInstance) -> ScenarioReport {
    PlannedInstance(instance, keeping: false).notRun
  }
}

/// The order instances start in: those that do not move the mock's clock, then those that do,
/// each in plan order — walked without a list of every position.
struct RunOrder {
  private let instances: PlannedInstances
  private var exclusivePass = false
  private var cursor = -1
  private var current: Int?

  init(_ instances: PlannedInstances) {
    self.instances = instances
    advance()
  }

  /// The next position to start, or nil when every one has started.
  func peek() -> Int? { current }

  /// Whether the position ``peek()`` gives moves the mock's clock (it then runs alone).
  var isExclusive: Bool { exclusivePass }

  mutating func advance() {
    while true {
      cursor += 1
      if cursor >= instances.count {
        guard !exclusivePass else {
          current = nil
          return
        }
        exclusivePass = true
        cursor = 0
      }
      guard cursor < instances.count else { continue }
      if instances.movesMockClock(at: cursor) == exclusivePass {
        current = cursor
        return
      }
    }
  }
}

/// Spools a scenario's report as it finishes, then passes it on: whoever hears of it finds it in
/// the spool.
struct SpoolingObserver: RunObserver {
  let base: (any RunObserver)?
  let spool: ScenarioSpool
  let position: Int

  func scenarioStarted(name: String, file: String) async {
    await base?.scenarioStarted(name: name, file: file)
  }

  func stepFinished(_ step: StepReport, scenario: String) async {
    await base?.stepFinished(step, scenario: scenario)
  }

  func scenarioFinished(_ report: ScenarioReport) async {
    spool.store(report, at: position)
    await base?.scenarioFinished(report)
  }
}
