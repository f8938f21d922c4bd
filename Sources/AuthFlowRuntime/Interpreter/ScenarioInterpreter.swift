import AuthFlowCore
public import AuthFlowExpression
import AuthFlowHTTP
public import AuthFlowResults
public import AuthFlowScenario
import Tracing

/// Runs one scenario instance: variables, then the step graph (independent branches
/// concurrently, a failed step skipping its dependants), then `cleanup`, which always runs.
public struct ScenarioInterpreter: Sendable {
  public var tenant: TenantContext
  public var services: RunServices
  public var functions: FunctionRegistry
  public var observer: (any RunObserver)?

  public init(
    tenant: TenantContext, services: RunServices, functions: FunctionRegistry, observer: (any RunObserver)? = nil
  ) {
    self.tenant = tenant
    self.services = services
    self.functions = functions
    self.observer = observer
  }

  /// Runs the instance: its report. With a tracer in the task (``Tracing``), the run is a span
  /// named after the scenario, each step a child span (and each HTTP exchange a child of its step).
  public func run(_ instance: ScenarioInstance) async -> ScenarioReport {
    if InstrumentationSystem.legacyTracer is NoOpTracer { return await runUntraced(instance) }
    return await withSpan(instance.name, ofKind: .internal) { span in
      span.attributes["authflow.scenario.file"] = instance.scenario.file
      span.attributes["authflow.tenant"] = tenant.name
      let report = await runUntraced(instance)
      span.attributes["authflow.status"] = report.status.rawValue
      Self.mark(
        span, status: report.status, problem: report.firstProblem?.problems.first?.message, secrets: services.secrets)
      return report
    }
  }

  /// A failed or environment-error outcome is the span's error, with its first problem (masked).
  static func mark(_ span: any Span, status: Status, problem: String?, secrets: SecretRegistry) {
    guard status == .failed || status == .error else { return }
    span.setStatus(SpanStatus(code: .error, message: problem.map(secrets.scrub)))
  }

  private func runUntraced(_ instance: ScenarioInstance) async -> ScenarioReport {
    let scenario = instance.scenario
    let started = ContinuousClock.now
    if let reason = skipReason(for: scenario) {
      // Skipped before its first step: its planned steps, none run, and seen by the observers
      // (the progress line counts it).
      let skipped = ScenarioReport.notStarted(
        name: instance.name, file: scenario.file, location: scenario.location, tags: scenario.tags.map(\.value),
        status: .skipped, reason: reason, graph: instance.graph)
      await observer?.scenarioFinished(skipped)
      return skipped
    }
    var report = ScenarioReport(
      name: instance.name, file: scenario.file, location: scenario.location, tags: scenario.tags.map(\.value),
      status: .passed, duration: .zero, steps: [])
    await observer?.scenarioStarted(name: instance.name, file: scenario.file)
    let clientName = scenario.client?.value ?? "native"
    var runtime = ScenarioRuntime(
      instance: instance, tenant: tenant, client: tenant.clients[clientName] ?? .null, services: services,
      functions: functions)

    var setupProblem = evaluateMatrix(instance, runtime: &runtime)
    if setupProblem == nil { setupProblem = await evaluateVariables(scenario, runtime: runtime) }
    let prepared = runtime
    if let problem = setupProblem {
      report.steps = [
        StepReport(
          id: "vars", name: "vars", action: "vars", phase: .main, location: problem.location ?? scenario.location,
          status: .failed, problems: [problem])
      ]
    } else {
      let budget = scenario.timeout?.value ?? .seconds(3600)
      let collector = StepCollector()
      // The scenario's exchanges with the tenant, so that its deadline, like a step's, tells a
      // tenant that never answered (environment) from the scenario's own waiting.
      let activity = RequestActivity(parent: RequestActivity.current)
      let main = await RequestActivity.$current.withValue(activity) {
        await withDeadline(budget, onExpiry: activity.markDeadline) {
          await runGraph(instance.graph.mainNodes, phase: .main, runtime: prepared, collector: collector)
        }
      }
      var mainReports = await collector.reports
      if case .timedOut = main {
        mainReports = completeAfterTimeout(
          scenario, finished: mainReports, budget: budget, pendingURL: activity.pendingAtDeadline)
      }
      report.steps = mainReports
      let cleanupCollector = StepCollector()
      let cleanup = instance.graph.cleanupNodes
      if !cleanup.isEmpty {
        // Cleanup runs even when the run was interrupted: an unstructured task does not inherit the
        // cancellation, and the cleanup budget bounds it.
        let cleanupTimeout = services.cleanupTimeout
        let task = Task {
          await withDeadline(cleanupTimeout) {
            await runGraph(cleanup, phase: .cleanup, runtime: prepared, collector: cleanupCollector)
          }
        }
        _ = await task.value
        report.steps += await cleanupCollector.reports
      }
    }
    await runtime.chromium.close()
    report.duration = ContinuousClock.now - started
    report.steps = Self.linkingNeeds(report.steps, graph: instance.graph)
    report.status = Self.status(of: report.steps)
    if report.status == .interrupted { report.skipReason = StopMessages.whileRunning(services.stops.cause) }
    if report.status == .skipped {
      report.skipReason = report.steps.first(where: Self.skipsScenario)?.skipReason ?? StepMessages.noStepRan
    }
    await observer?.scenarioFinished(report)
    return report
  }

  /// Failed, else error, else interrupted when any step was cut short or never started because
  /// the run was stopped (whatever the cleanup did: an interrupted scenario never held), else
  /// skipped when none of its main steps ran (each one's `if:` false):
  /// nothing was checked, so it did not pass. Else passed.
  static func status(of steps: [StepReport]) -> Status {
    if steps.contains(where: { $0.status == .failed }) { return .failed }
    if steps.contains(where: { $0.status == .error }) { return .error }
    if steps.contains(where: { $0.status == .interrupted }) { return .interrupted }
    if steps.contains(where: skipsScenario) { return .skipped }
    let main = steps.lazy.filter { $0.phase == .main }
    if !main.isEmpty, main.allSatisfy({ $0.status == .skipped && $0.skipReason == StepMessages.conditionFalse }) {
      return .skipped
    }
    return .passed
  }

  /// Whether `step` ended its scenario as skipped: it ran and is skipped, which only a step whose
  /// action asked for it is (a `skip` step; a step skipped by its `if:` or a dependency never ran).
  static func skipsScenario(_ step: StepReport) -> Bool {
    step.status == .skipped && step.attempts > 0
  }

  /// Each step with the steps it waits for in the flow graph (``StepReport/needs``), so that a
  /// report can draw the graph without the scenario file.
  static func linkingNeeds(_ steps: [StepReport], graph: FlowGraph) -> [StepReport] {
    steps.map { step in
      var step = step
      if let node = graph.node(step.id), node.isCleanup == (step.phase == .cleanup) {
        step.needs = node.dependencies
      }
      return step
    }
  }

  /// `matrix.NAME` for this instance; the values may use every root but `vars` and `steps`.
  private func evaluateMatrix(_ instance: ScenarioInstance, runtime: inout ScenarioRuntime) -> Problem? {
    var values: [String: Value] = [:]
    let context = EvaluationContext(roots: runtime.fixedRoots, functions: functions)
    for entry in instance.matrix {
      do {
        values[entry.name] = try entry.value.evaluate(in: context)
      } catch {
        return Problem(.evaluation, "matrix.\(entry.name): \(error.message)", at: error.location)
      }
    }
    runtime.fixedRoots["matrix"] = .object(values)
    return nil
  }

  private func evaluateVariables(_ scenario: Scenario, runtime: ScenarioRuntime) async -> Problem? {
    for binding in scenario.vars {
      do {
        let value = try binding.value.evaluate(in: await runtime.evaluationContext())
        services.secrets.register(secretsIn: value)
        await runtime.state.setVariable(binding.name.value, value)
      } catch {
        return Problem(.evaluation, "vars.\(binding.name.value): \(error.message)", at: error.location)
      }
    }
    return nil
  }

  /// The steps that had not finished when the scenario's timeout struck (the timeout cancelled
  /// them, so they report themselves interrupted): the first one that was running fails with a
  /// timeout — an environment error when a request to the tenant was unanswered at that moment
  /// (`pendingURL`) — the others are skipped with the reason.
  private func completeAfterTimeout(
    _ scenario: Scenario, finished: [StepReport], budget: Duration, pendingURL: String?
  ) -> [StepReport] {
    let reason = StepMessages.scenarioTimedOut(budget)
    let done = Set(finished.map(\.id))
    let cutShort = finished.map { report in
      guard report.status == .interrupted else { return report }
      var report = report
      report.status = .skipped
      report.skipReason = reason
      return report
    }
    let rest = scenario.steps.filter { !done.contains($0.id.value) }.map { step in
      StepReport(
        id: step.id.value, name: step.displayName, action: step.action.name.value, phase: .main,
        location: step.location, status: .skipped, skipReason: reason)
    }
    var reports = cutShort + rest
    let running = reports.firstIndex { $0.skipReason == reason && $0.attempts > 0 }
    if let index = running ?? reports.firstIndex(where: { $0.skipReason == reason }) {
      let location = scenario.timeout?.location ?? scenario.location
      reports[index].skipReason = nil
      if let pendingURL {
        let message = services.secrets.scrub(
          StepMessages.scenarioTenantTimedOut(budget, url: SensitiveData.maskURL(pendingURL)))
        reports[index].status = .error
        reports[index].problems = [Problem(.environment, message, at: location)]
      } else {
        reports[index].status = .failed
        reports[index].problems = [Problem(.timeout, reason, at: location)]
      }
    }
    return reports
  }

  /// Walks one phase of the flow graph (its main or its cleanup nodes): a step starts when every
  /// step it depends on has finished; it is skipped when one of them failed (or was itself skipped
  /// because of a failure). Scheduling is linear in steps and edges: each step counts the
  /// dependencies still unfinished, and a finished step releases only its own dependants.
  private func runGraph(
    _ nodes: [FlowGraph.Node], phase: StepPhase, runtime: ScenarioRuntime, collector: StepCollector
  ) async {
    let steps = nodes.map(\.step)
    var finished: [String: StepReport] = [:]
    var poisoned: Set<String> = []
    var started = [Bool](repeating: false, count: steps.count)
    /// The `skip` step that ended the scenario, once one has.
    var scenarioSkippedAt: String?
    var unfinishedNeeds = [Int](repeating: 0, count: steps.count)
    var dependants: [String: [Int]] = [:]
    var ready: [Int] = []
    for (index, node) in nodes.enumerated() {
      let needs = Set(node.dependencies)
      unfinishedNeeds[index] = needs.count
      for need in needs { dependants[need, default: []].append(index) }
      if needs.isEmpty { ready.append(index) }
    }
    let runner = StepRunner(scenario: runtime)
    await withTaskGroup(of: StepReport.self) { group in
      var running = 0
      var next = 0
      func release(_ id: String) {
        for index in dependants[id] ?? [] {
          unfinishedNeeds[index] -= 1
          if unfinishedNeeds[index] == 0 { ready.append(index) }
        }
      }
      while true {
        while next < ready.count {
          let index = ready[next]
          next += 1
          let step = steps[index]
          started[index] = true
          let needs = nodes[index].dependencies
          if Task.isCancelled {
            let reason = StopMessages.step(services.stops.cause)
            let skipped = skippedReport(step, phase: phase, reason: reason, status: .interrupted)
            finished[step.id.value] = skipped
            await record(skipped, collector: collector, scenario: runtime.instance.name)
            release(step.id.value)
            continue
          }
          if let skipper = scenarioSkippedAt {
            // A `skip` step ended the scenario: what has not started does not.
            let skipped = skippedReport(step, phase: phase, reason: StepMessages.scenarioSkipped(at: skipper))
            finished[step.id.value] = skipped
            await record(skipped, collector: collector, scenario: runtime.instance.name)
            release(step.id.value)
            continue
          }
          if let blocker = needs.first(where: { poisoned.contains($0) }) {
            let status = finished[blocker]?.status ?? .failed
            var skipped = skippedReport(
              step, phase: phase, reason: StepMessages.dependencyFailed(blocker, status: status))
            skipped.blockedBy = finished[blocker]?.blockedBy ?? blocker
            finished[step.id.value] = skipped
            poisoned.insert(step.id.value)
            await record(skipped, collector: collector, scenario: runtime.instance.name)
            release(step.id.value)
            continue
          }
          running += 1
          group.addTask { await runner.traced(step, phase: phase) }
        }
        guard running > 0, let report = await group.next() else {
          // Whatever has not started has a dependency that can never finish (the validator rejects
          // unknown needs and cycles; this keeps a step from vanishing from the report regardless).
          for (index, step) in steps.enumerated() where !started[index] {
            let skipped = skippedReport(step, phase: phase, reason: "its dependencies can never finish")
            await record(skipped, collector: collector, scenario: runtime.instance.name)
          }
          break
        }
        running -= 1
        finished[report.id] = report
        if report.status == .failed || report.status == .error { poisoned.insert(report.id) }
        if Self.skipsScenario(report), scenarioSkippedAt == nil { scenarioSkippedAt = report.id }
        await record(report, collector: collector, scenario: runtime.instance.name)
        release(report.id)
      }
    }
  }

  private func skippedReport(_ step: Step, phase: StepPhase, reason: String, status: Status = .skipped) -> StepReport {
    StepReport(
      id: step.id.value, name: step.displayName, action: step.action.name.value, phase: phase, location: step.location,
      status: status, skipReason: reason)
  }

  private func record(_ report: StepReport, collector: StepCollector, scenario: String) async {
    await collector.add(report)
    await observer?.stepFinished(report, scenario: scenario)
  }
}

/// Collects step reports as they finish, so a timeout keeps what had finished.
actor StepCollector {
  private var finished: [StepReport] = []

  func add(_ report: StepReport) { finished.append(report) }

  var reports: [StepReport] { finished }
}
