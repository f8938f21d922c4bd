import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowScenario
import Tracing

/// Runs one step: its condition, its attempts (retry / until), its expectations and `save`.
struct StepRunner: Sendable {
  let scenario: ScenarioRuntime

  /// ``run(_:phase:)`` as a span named after the step, when the task has a tracer.
  func traced(_ step: Step, phase: StepPhase) async -> StepReport {
    if InstrumentationSystem.legacyTracer is NoOpTracer { return await run(step, phase: phase) }
    return await withSpan("step \(step.id.value)", ofKind: .internal) { span in
      span.attributes["authflow.step.id"] = step.id.value
      span.attributes["authflow.step.action"] = step.action.name.value
      span.attributes["authflow.step.phase"] = phase.rawValue
      let report = await run(step, phase: phase)
      span.attributes["authflow.status"] = report.status.rawValue
      ScenarioInterpreter.mark(
        span, status: report.status, problem: report.problems.first?.message, secrets: scenario.services.secrets)
      return report
    }
  }

  func run(_ step: Step, phase: StepPhase) async -> StepReport {
    if let client = step.client {
      // A missing profile skips the whole scenario before it starts (ScenarioInterpreter.skipReason).
      let runner = StepRunner(scenario: scenario.using(client: scenario.tenant.clients[client.value] ?? .null))
      var unnamed = step
      unnamed.client = nil
      return await runner.run(unnamed, phase: phase)
    }
    let started = ContinuousClock.now
    var report = StepReport(
      id: step.id.value, name: step.displayName, action: step.action.name.value, phase: phase,
      location: step.location, status: .passed)
    if let condition = step.condition {
      do {
        let context = await scenario.evaluationContext()
        let value = try condition.evaluate(in: context)
        if !value.isTruthy {
          if let problem = ReadsNothingChecks.falseByNothing(condition, in: context) {
            return finish(report, started: started, problems: [problem])
          }
          report.status = .skipped
          report.skipReason = StepMessages.conditionFalse
          return report
        }
      } catch {
        return finish(report, started: started, problems: [Problem(.evaluation, error.message, at: error.location)])
      }
    }
    guard let action = ActionRegistry.action(named: step.action.name.value) else {
      let problem = Problem(.action, StepMessages.unknownAction(step.action.name.value), at: step.action.name.location)
      return finish(report, started: started, problems: [problem])
    }
    let timeout = step.timeout?.value ?? scenario.services.defaultStepTimeout
    let activity = RequestActivity(parent: RequestActivity.current)
    let log = scenario.services.recordsExchanges ? StepExchangeLog() : nil
    let attempts = await StepExchangeLog.$current.withValue(log) {
      await RequestActivity.$current.withValue(activity) {
        await withDeadline(timeout, onExpiry: activity.markDeadline) {
          if scenario.inboxMarkedSteps.contains(step.id.value) { await markInbox(before: step) }
          return await self.attempt(step, action: action)
        }
      }
    }
    report.exchanges = log?.exchanges ?? []
    switch attempts {
    case .finished(let outcome):
      report.attempts = outcome.attempts
      report.result = outcome.result
      if let reason = outcome.skip, !outcome.problems.contains(where: { $0.severity == .error }) {
        // `skip`: the scenario ends here as skipped (``ScenarioInterpreter``).
        report.status = .skipped
        report.skipReason = reason
        report.problems = outcome.problems
        report.duration = ContinuousClock.now - started
        return report
      }
      if outcome.interrupted {
        report.attempts = max(1, outcome.attempts)
        report.status = .interrupted
        report.skipReason = StopMessages.step(scenario.services.stops.cause)
        report.duration = ContinuousClock.now - started
        return report
      }
      return finish(report, started: started, problems: outcome.problems)
    case .timedOut:
      let location = step.timeout?.location ?? step.location
      // Waiting on the tenant when the time ran out: the tenant is slow, an environment failure.
      if let url = activity.pendingAtDeadline {
        let message = scenario.scrub(StepMessages.tenantTimedOut(timeout, url: SensitiveData.maskURL(url)))
        return finish(report, started: started, problems: [Problem(.environment, message, at: location)])
      }
      // An action that sleeps or polls says so (its declared timeout behaviour).
      let hint = action.traits.timeout.stepTimeoutHint(action: step.action.name.value).map { ": " + $0 } ?? ""
      let problem = Problem(.timeout, StepMessages.timedOut(timeout) + hint, at: location)
      return finish(report, started: started, problems: [problem])
    }
  }

  private func finish(_ report: StepReport, started: ContinuousClock.Instant, problems: [Problem]) -> StepReport {
    var report = report
    report.problems = problems
    report.duration = ContinuousClock.now - started
    if problems.contains(where: { $0.kind == .environment }) {
      report.status = .error
    } else if problems.contains(where: { $0.severity == .error }) {
      report.status = .failed
    }
    return report
  }

  /// The problem kinds a step's `severity: warning` turns into warnings: the assertion failures.
  /// Environment errors, timeouts and expressions that cannot be evaluated stay errors.
  static let demotableKinds: Set<Problem.Kind> = [.expectation, .unexpectedError, .action, .retryExhausted]

  /// `problems` with the step's severity applied (an expectation's own severity was applied when
  /// it was checked).
  static func applyingSeverity(_ severity: CheckSeverity?, to problems: [Problem]) -> [Problem] {
    guard severity == .warning else { return problems }
    return problems.map { problem in
      var problem = problem
      if demotableKinds.contains(problem.kind), problem.kind != .expectation { problem.severity = .warning }
      return problem
    }
  }

  struct AttemptOutcome: Sendable {
    var attempts: Int
    var result: Value?
    var problems: [Problem]
    var interrupted = false
    /// The reason the scenario is to end skipped (`skip`), when the action asked.
    var skip: String?
  }

  /// The delay before the next attempt: `delay × backoff`, computed in seconds and capped at
  /// ``InputLimits/longestDuration`` so that no number of attempts can overflow it.
  static func nextDelay(after delay: Duration, backoff: Double) -> Duration {
    let seconds = delay.seconds * max(1, backoff)
    return DurationText.duration(seconds: min(seconds, InputLimits.longestDuration.seconds)) ?? delay
  }

  private func attempt(_ step: Step, action: any Action.Type) async -> AttemptOutcome {
    let maximum = max(1, step.retry?.attempts ?? 1)
    var delay = step.retry?.delay ?? .zero
    var outcome = AttemptOutcome(attempts: 0, result: nil, problems: [])
    for attempt in 1...maximum {
      outcome = await once(step, action: action)
      outcome.attempts = attempt
      if Task.isCancelled {
        outcome.interrupted = true
        return outcome
      }
      let blocking = outcome.problems.filter { $0.severity == .error }
      let retryable = blocking.contains { $0.kind != .evaluation && $0.kind != .action }
      if blocking.isEmpty || !retryable || attempt == maximum { break }
      if delay > .zero {
        do { try await Task.sleep(for: delay) } catch {
          outcome.interrupted = true
          return outcome
        }
      }
      delay = Self.nextDelay(after: delay, backoff: step.retry?.backoff ?? 1)
    }
    if !outcome.problems.contains(where: { $0.severity == .error }) {
      outcome.problems += await save(step)
    }
    return outcome
  }

  /// One attempt: evaluate parameters, run the action, check `until` and the expectations.
  private func once(_ step: Step, action: any Action.Type) async -> AttemptOutcome {
    var outcome = await checkedOnce(step, action: action)
    outcome.problems = Self.applyingSeverity(step.severity?.value, to: outcome.problems)
    return outcome
  }

  private func checkedOnce(_ step: Step, action: any Action.Type) async -> AttemptOutcome {
    var outcome = AttemptOutcome(attempts: 1, result: nil, problems: [])
    let parameters: Value
    let parameterContext = await scenario.evaluationContext()
    do {
      parameters = try step.action.parameters.evaluate(in: parameterContext)
    } catch {
      outcome.problems = [Problem(.evaluation, error.message, at: error.location)]
      return outcome
    }
    // `url: "/api/v2/users/${{ steps.create.body.user_idd }}"` would ask for the list of users.
    if let problem = ReadsNothingChecks.parameterReadingNothing(
      in: step.action.parameters, evaluatedTo: parameters, of: action, context: parameterContext)
    {
      outcome.problems = [problem]
      return outcome
    }
    scenario.services.secrets.register(secretsIn: parameters)
    // The parameters' context: nothing has run since they were evaluated.
    let inequalities = ReadsNothingChecks.conditionInequalities(of: step, action: action)
    if let problem = inequalities.lazy.compactMap({ $0.vacuity(in: parameterContext) }).first {
      outcome.problems = [problem]
      return outcome
    }
    var result: ActionOutcome
    let actionContext = scenario.actionContext(stepID: step.id.value)
    do {
      result = try await action.init().run(parameters, in: actionContext)
      result = await action.completing(result, parameters: parameters, context: actionContext)
    } catch {
      let kind: Problem.Kind = error.kind == .environment ? .environment : .action
      outcome.problems = [Problem(kind, scenario.scrub(error.message), at: step.action.name.location)]
      return outcome
    }
    // The fields the action declares secret are masked whatever the tenant called them.
    let value = action.signature.results?.maskingSecretFields(in: result.resultValue) ?? result.resultValue
    scenario.services.secrets.register(secretsIn: value)
    await scenario.state.setResult(step.id.value, value)
    outcome.result = value
    let context = await scenario.evaluationContext()
    let checks = ExpectationCheck(scenario: scenario, step: step)
    let (problems, expectations) = checks.answerProblems(
      of: result, value: value, action: action, findings: actionContext.findings, context: context)
    outcome.problems += problems
    outcome.skip = actionContext.findings.skip.map(scenario.scrub)
    if let until = step.retry?.until {
      do {
        if !(try until.evaluate(in: context).isTruthy) {
          // `until: ${{ steps.poll.body.stauts == 'done' }}` never holds: say which name read nothing.
          let chain = ReadsNothingChecks.chainDecidingFalse(until, in: context)
          outcome.problems.append(
            Problem(
              .retryExhausted, StepMessages.untilNotHeld + (chain.map(StepMessages.becauseReadNothing) ?? ""),
              at: until.location))
          return outcome
        }
      } catch {
        outcome.problems.append(Problem(.evaluation, error.message, at: error.location))
        return outcome
      }
    }
    outcome.problems += checks.check(expectations, result: value, context: context)
    return outcome
  }

  /// Notes the inbox's newest message id before `step` runs (a step an `outbox` reads "after").
  /// A failure to read it does not fail this step: it is kept, and the reader's step reports it.
  private func markInbox(before step: Step) async {
    let mark: InboxMark
    do {
      let mailbox = try TenantMailbox(
        scenario.actionContext(stepID: step.id.value), action: step.action.name.value)
      mark = .lastID(try await mailbox.lastID())
    } catch {
      mark = .unreadable(scenario.scrub(error.message))
    }
    await scenario.state.setInboxMark(step.id.value, mark)
  }

  private func save(_ step: Step) async -> [Problem] {
    guard !step.save.isEmpty else { return [] }
    let context = await scenario.evaluationContext()
    var problems: [Problem] = []
    for binding in step.save {
      do {
        let value = try binding.value.evaluate(in: context)
        scenario.services.secrets.register(secretsIn: value)
        await scenario.state.setVariable(binding.name.value, value)
      } catch {
        problems.append(Problem(.evaluation, error.message, at: error.location))
      }
    }
    return problems
  }
}
