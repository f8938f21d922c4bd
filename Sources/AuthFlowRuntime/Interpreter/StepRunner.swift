import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowScenario

/// Runs one step: its condition, its attempts (retry / until), its expectations and `save`.
struct StepRunner: Sendable {
  let scenario: ScenarioRuntime

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
          if let problem = Self.falseByNothing(condition, in: context) {
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
        await withDeadline(timeout, onExpiry: activity.markDeadline) { await self.attempt(step, action: action) }
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
    if let problem = Self.parameterReadingNothing(
      in: step.action.parameters, evaluatedTo: parameters, of: action, context: parameterContext)
    {
      outcome.problems = [problem]
      return outcome
    }
    scenario.services.secrets.register(secretsIn: parameters)
    // The parameters' context: nothing has run since they were evaluated.
    let inequalities = Self.conditionInequalities(of: step, action: action)
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
    var expectations = step.expectations
    if case .protocolError(let error, _) = result,
      !expectsError(step) || (error.isRateLimit && !acceptsRateLimit(step, result: value, context: context))
    {
      // The expectations about the answer (`response`) still say something; the others would
      // only repeat that the result has no credentials, burying the error: not checked.
      expectations = step.expectations.filter { $0.components.first == ResultField.response.name }
      let unchecked = step.expectations.count - expectations.count
      // A rate limit still refusing after the retries is the tenant's capacity, not the flow
      // saying no: an environment error (exit 3), unless the step expects that very error.
      let problem =
        error.isRateLimit
        ? Problem(
          .environment, scenario.scrub(StepMessages.rateLimited(error) + StepMessages.notChecked(unchecked)),
          at: step.action.name.location)
        : Problem(
          .unexpectedError, scenario.scrub(StepMessages.unexpectedError(error) + StepMessages.notChecked(unchecked)),
          at: step.action.name.location, path: "error",
          actual: scenario.scrub(error.value.display(revealSecrets: scenario.reveal)))
      outcome.problems.append(problem)
    }
    if let failure = action.failure(in: value, expectations: step.expectations.map(\.components)) {
      let kind: Problem.Kind = failure.failureClass == .environment ? .environment : .action
      outcome.problems.append(Problem(kind, scenario.scrub(failure.message), at: step.action.name.location))
    }
    if let failure = IDTokenFailure.unexpected(in: value, expectations: step.expectations.map(\.components)) {
      // About the result's `id_token`: a report names the conformance checks it failed by it.
      outcome.problems.append(
        Problem(.action, scenario.scrub(failure), at: step.action.name.location, path: IDTokenFailure.path))
    }
    outcome.problems += Self.problems(
      of: actionContext.findings.all, expected: step.expectations.map(\.components), at: step.action.name.location
    ).map { problem in
      var problem = problem
      problem.message = scenario.scrub(problem.message)
      return problem
    }
    outcome.problems += actionContext.findings.reviews.map { reason in
      Problem(.review, scenario.scrub(StepMessages.review(reason)), at: step.action.name.location, severity: .warning)
    }
    outcome.skip = actionContext.findings.skip.map(scenario.scrub)
    if let until = step.retry?.until {
      do {
        if !(try until.evaluate(in: context).isTruthy) {
          // `until: ${{ steps.poll.body.stauts == 'done' }}` never holds: say which name read nothing.
          let chain = Self.chainDecidingFalse(until, in: context)
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
    outcome.problems += check(expectations, of: step, result: value, context: context)
    return outcome
  }

  /// The problems of the protocol rules the tenant's answer broke (``ProtocolFinding``), but for
  /// those the step's expectations test themselves.
  static func problems(of findings: [ProtocolFinding], expected: [[String]], at location: SourceLocation) -> [Problem] {
    findings.filter { !$0.isTested(by: expected) }.map { finding in
      Problem(
        .action, finding.text, at: location, path: finding.path.joined(separator: "."), severity: finding.severity)
    }
  }

  /// A warning for an expectation whose every matcher held on a path that is absent, where the
  /// object the last name missed in has a key a typo away (``Suggestion/closest(to:in:)``):
  /// `body.eror: { exists: false }` or `body.scops: { not_contains: admin }` against a body with
  /// `error` or `scope` check nothing. A warning, not a failure: the absence may be the point
  /// (`scopes` gone where `scope` is), and the run's exit code stays as the checks decided it. A
  /// step that also checks the near key (`scope: openid`, then `scopes: { exists: false }`) knows
  /// both names: no warning.
  static func nearMiss(_ expectation: Expectation, in result: Value, checked: [Expectation]) -> Problem? {
    let components = expectation.components
    guard let name = components.last, let matcher = expectation.matchers.first,
      let members = result.lookup(path: Array(components.dropLast()))?.objectValue,
      members.count <= StepMessages.maxKeysSuggested,
      let near = Suggestion.closest(to: name, in: members.keys.sorted()), near != name,
      !checked.contains(where: { $0.components == components.dropLast() + [near] })
    else { return nil }
    return Problem(
      .expectation,
      StepMessages.absentNearMiss(path: expectation.path.value, matcher: matcher.kind, name: name, near: near),
      at: expectation.path.location, path: expectation.path.value, matcher: matcher.kind.rawValue,
      severity: .warning)
  }

  /// Whether the step expects an error answer: an expectation under `error`.
  private func expectsError(_ step: Step) -> Bool {
    step.expectations.contains { $0.components.first == ResultField.error.name }
  }

  /// Whether a rate limit's refusal is the answer the step tests: its expectations about which
  /// error it is (`error.code`, `error.status`, or `error` itself) all hold for it. A step that
  /// expects `error.code: invalid_grant` and meets a 429 learnt nothing about its grant: that is
  /// the tenant's capacity (an environment error), not an assertion that failed.
  private func acceptsRateLimit(_ step: Step, result: Value, context: EvaluationContext) -> Bool {
    let identifying = step.expectations.filter { expectation in
      let components = expectation.components
      guard components.first == ResultField.error.name else { return false }
      return components.count == 1 || components[1] == "code" || components[1] == "status"
    }
    return check(identifying, of: step, result: result, context: context).isEmpty
  }

  private func check(
    _ expectations: [Expectation], of step: Step, result: Value, context: EvaluationContext
  ) -> [Problem] {
    var problems: [Problem] = []
    for expectation in expectations {
      let actual = result.lookup(path: expectation.components)
      let before = problems.count
      problems += check(expectation, actual: actual, of: step, result: result, context: context)
      if actual == nil, problems.count == before,
        var warning = Self.nearMiss(expectation, in: result, checked: step.expectations)
      {
        warning.message = scenario.scrub(warning.message)
        problems.append(warning)
      }
    }
    return problems
  }

  /// The problems of one expectation's matchers against `actual`, the value at its path.
  private func check(
    _ expectation: Expectation, actual: Value?, of step: Step, result: Value, context: EvaluationContext
  ) -> [Problem] {
    var problems: [Problem] = []
    for matcher in expectation.matchers {
      let expected: Value
      do {
        expected = try matcher.operand.evaluate(in: context)
      } catch {
        problems.append(Problem(.evaluation, error.message, at: error.location))
        continue
      }
      // `not_equals: ${{ steps.login.body.refresh_tokn }}`: the operand read nothing, and a
      // negated check against nothing holds whatever the tenant answered.
      if matcher.kind.rule.isNegation, matcher.operand.readsNothing(evaluatedTo: expected) {
        let element = !expected.isNull
        problems.append(
          Problem(
            .evaluation, StepMessages.negatedAgainstNothing(matcher.kind, element: element), at: matcher.location))
        continue
      }
      // `equals: ${{ steps.login.body.tokn }}` compares with null: against a `null` the tenant sent
      // it holds, and against anything else it fails saying "to equal null", not why.
      if let (_, location) = matcher.operand.chainReadingNothing(evaluatedTo: expected, roots: Self.answeredRoots) {
        problems.append(Problem(.evaluation, StepMessages.operandReadsNothing(matcher.kind), at: location))
        continue
      }
      // `not_equals: "tok-${{ steps.a.body.tokn }}"` compares with "tok-": a check of another value.
      if let location = matcher.operand.interpolationReadingNothing(in: context) {
        problems.append(Problem(.evaluation, StepMessages.interpolatedNothing(matcher.kind), at: location))
        continue
      }
      guard let verb = matcher.kind.failure(expected: expected, actual: actual) else { continue }
      // `exists: true` wants a value, not the word "true": "expected: present".
      let expectedText =
        matcher.kind == .exists ? StepMessages.presence(expected.isTruthy) : scenario.show(expected)
      // The keys named are the tenant's: masked as its values are, should one be a secret.
      let actualText =
        actual.map(scenario.show) ?? scenario.scrub(StepMessages.nothingAt(expectation.components, in: result))
      let reason = ExpectationMessage.reason(for: expectation.components, in: result).map(scenario.scrub)
      let message = matcher.kind.failureMessage(
        path: expectation.path.value, failure: verb, expected: expectedText, actual: actualText, reason: reason)
      problems.append(
        Problem(
          .expectation, message,
          at: matcher.location, path: expectation.path.value, matcher: matcher.kind.rawValue, expected: expectedText,
          actual: actualText, severity: expectation.severity?.value ?? step.severity?.value ?? .error))
    }
    return problems
  }

  /// The first parameter that would send the action something other than what it names: one that
  /// renders an expression that read nothing into longer text, or whose value (or a member's, or an
  /// element's) is a name of what the tenant answered (``answeredRoots``) that read nothing —
  /// `json: { refresh_token: "${{ steps.a.body.refresh_tokn }}" }` would send `null`, and a
  /// `status: 400` would pass on the tenant refusing the malformed request. Free text
  /// (``ParameterSignature/isFreeText``) renders nothing as empty, and a condition
  /// (``ParameterSignature/isCondition``) is judged as one; nil when none does.
  static func parameterReadingNothing(
    in parameters: Template, evaluatedTo values: Value, of action: any Action.Type, context: EvaluationContext
  ) -> Problem? {
    func reading(_ template: Template, _ value: Value?, _ signature: ParameterSignature?) -> Problem? {
      if signature?.isFreeText == true { return nil }
      if let location = template.interpolationReadingNothing(in: context) {
        return Problem(.evaluation, StepMessages.parameterInterpolatesNothing, at: location)
      }
      if signature?.isCondition == true { return nil }
      guard let value, let (chain, location) = template.chainReadingNothing(evaluatedTo: value, roots: answeredRoots)
      else { return nil }
      // `steps.renew.…` where `renew` was skipped by its own `if:`: say so, not "misspelt".
      if let id = stepThatDidNotRun(chain, in: context) {
        return Problem(.evaluation, StepMessages.parameterReadsAStepThatDidNotRun(id), at: location)
      }
      return Problem(.evaluation, StepMessages.parameterReadsNothing, at: location)
    }
    guard case .object(let members, _) = parameters, case .object(let evaluated) = values else {
      return reading(parameters, values, action.signature.scalarForm)
    }
    return members.lazy.compactMap {
      reading($0.value, evaluated[$0.key.value], action.signature.parameter($0.key.value))
    }.first
  }

  /// A false `if:` decided by a value that read nothing (``Expr/chainDecidingFalse(in:)``): a
  /// misspelt name in an open body (`steps.disc.body.isuser == 'x'`) would skip the step, and its
  /// checks, without a word. The step fails instead, at the name. Only names of what the tenant
  /// answered count (``answeredRoots``): an unset `env` variable or tenant setting in an `if:`
  /// means "off" (docs/running.md).
  static func falseByNothing(_ condition: Template, in context: EvaluationContext) -> Problem? {
    guard case .expression(_, let location) = condition, let chain = chainDecidingFalse(condition, in: context) else {
      return nil
    }
    return Problem(
      .evaluation, StepMessages.conditionFalseByNothing(chain.description), at: location.advanced(by: chain.offset))
  }

  /// The name of what the tenant answered that read nothing and decided a false condition
  /// (``Expr/chainDecidingFalse(in:counting:)``), if any. A name under a step with no result
  /// (`steps.renew.status` where `renew` was skipped by its own `if:`) is not one: the step's
  /// absence is the flow's, and a condition on it is how a scenario says "if it ran".
  static func chainDecidingFalse(_ condition: Template, in context: EvaluationContext) -> Reference? {
    guard case .expression(.whole(let expression, _), _) = condition else { return nil }
    return expression.chainDecidingFalse(in: context) { chain in
      answeredRoots.contains(chain.root) && stepThatDidNotRun(chain, in: context) == nil
    }
  }

  /// The step a `steps.ID.…` chain reads when that step has no result: it did not run (skipped by
  /// its own `if:`). Nil for any other chain.
  static func stepThatDidNotRun(_ chain: Reference, in context: EvaluationContext) -> String? {
    guard chain.root == "steps", let id = chain.path.first, context.roots["steps"]?.member(id) == nil else {
      return nil
    }
    return id
  }

  /// The roots whose values come from the tenant's answers: step results, the credentials store,
  /// and the variables `save` fills from them.
  static let answeredRoots: Set<String> = ["steps", "credentials", "vars"]

  /// The conditions of a step (`assert`'s `that`) that may rest on an inequality (``ConditionInequality``),
  /// judged from their syntax; empty for every other step, without evaluating anything.
  static func conditionInequalities(of step: Step, action: any Action.Type) -> [ConditionInequality] {
    action.signature.conditions(in: step.action.parameters).compactMap { _, condition in
      guard case .expression(.whole(let expression, _), let location) = condition,
        expression.mayCompareAgainstNothing
      else { return nil }
      return ConditionInequality(expression: expression, location: location)
    }
  }

  /// A condition's `a != b` (anywhere its evaluation reaches through `&&`, `||` and `!`): a side
  /// that read nothing makes it hold against `null` whatever the tenant answered
  /// (`${{ steps.renew.refresh_token != steps.login.refresh_token }}` against a refresh that gave
  /// no token) — the expression form of a negated matcher against nothing.
  struct ConditionInequality {
    var expression: Expr
    /// Where the condition's string starts; the `!=` is at an offset from it.
    var location: SourceLocation

    func vacuity(in context: EvaluationContext) -> Problem? {
      guard let offset = expression.inequalityAgainstNothing(in: context) else { return nil }
      return Problem(.evaluation, StepMessages.inequalityAgainstNothing, at: location.advanced(by: offset))
    }
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

/// The messages a step's outcome uses.
enum StepMessages {
  static let conditionFalse = "its `if` condition is false"

  static func conditionFalseByNothing(_ chain: String) -> String {
    "the `if` condition is false because \(chain) read nothing (a missing value, null), so a misspelt name would "
      + "skip this step and its checks; if the value may be absent, say so: \(chain) != null && …, "
      + "\(chain) == null || …, or default(\(chain), …)"
  }
  /// A scenario none of whose main steps ran (a step that needs one skipped by its `if` still
  /// runs, so each was skipped by its own).
  static let noStepRan = "none of its steps ran: each one's `if` condition was false"
  static let untilNotHeld = "retry: the `until` condition never held"

  /// What a condition that stayed false read nothing at: `; steps.poll.body.stauts read nothing …`.
  static func becauseReadNothing(_ chain: Reference) -> String {
    "; at the last attempt \(chain) read nothing (a missing value, null): is the name misspelt?"
  }

  static let inequalityAgainstNothing =
    "one side of an inequality read nothing (a missing value, null), and != against nothing (or !(a == b)) holds "
    + "whatever the tenant answers; check that the value exists first (${{ a != null && a != b }}), or compare "
    + "with null on purpose (a == null || a != b)"

  static let parameterInterpolatesNothing =
    "this parameter interpolates an expression that read nothing (a missing value, null) into its text, so the "
    + "action would be sent the text around it instead of the value meant; make sure the value exists, or write "
    + "default(…, '') for a part that may be absent"

  static let parameterReadsNothing =
    "this parameter's value read nothing (a missing value, null), so the action would be sent null instead of the "
    + "value meant, and a check of how the tenant refuses that would pass; make sure the value exists, or write "
    + "default(…, null) where it may be absent"

  static func parameterReadsAStepThatDidNotRun(_ id: String) -> String {
    "this parameter's value reads the result of step '\(id)', which did not run (its `if` was false), so the "
      + "action would be sent null; guard this step the same way, or with if: ${{ steps.\(id) != null }}"
  }

  static func interpolatedNothing(_ kind: Matcher.Kind) -> String {
    "the operand of \(kind.rawValue) interpolates an expression that read nothing (a missing value, null) into "
      + "its text, so the check compares with the text around it instead of the value meant; make sure the value "
      + "exists, or write default(…, '') for a part that may be absent"
  }

  static func negatedAgainstNothing(_ kind: Matcher.Kind, element: Bool = false) -> String {
    "\(element ? "an element of " : "")the operand of \(kind.rawValue) read nothing (a missing value, null), and a "
      + "negated check against nothing "
      + "holds whatever the tenant answers; make sure the value it reads exists (`exists: true` on the step that "
      + "gives it), or write `\(kind.rawValue): null` to compare with null on purpose"
  }

  static func operandReadsNothing(_ kind: Matcher.Kind) -> String {
    "the operand of \(kind.rawValue) read nothing (a missing value, null), so the check compares with null instead "
      + "of the value meant; make sure the value it reads exists, or write `\(kind.rawValue): null` to compare with "
      + "null on purpose"
  }

  static func timedOut(_ duration: Duration) -> String {
    "the step did not finish within its timeout of \(DurationText.format(duration))"
  }

  static func tenantTimedOut(_ duration: Duration, url: String) -> String {
    "the step did not finish within its timeout of \(DurationText.format(duration)): the tenant had not answered \(url)"
  }

  static func scenarioTimedOut(_ duration: Duration) -> String {
    "the scenario did not finish within its timeout of \(DurationText.format(duration))"
  }

  static func scenarioTenantTimedOut(_ duration: Duration, url: String) -> String {
    "the scenario did not finish within its timeout of \(DurationText.format(duration)): the tenant had not answered \(url)"
  }

  static func unknownAction(_ name: String) -> String { "unknown action '\(name)'" }

  /// A review a step asks for (`review`).
  static func review(_ reason: String) -> String { "for review: \(reason)" }

  /// A step not started because a `skip` step ended the scenario.
  static func scenarioSkipped(at id: String) -> String { "the scenario was skipped at step '\(id)'" }

  static func rateLimited(_ error: ProtocolError) -> String {
    "the tenant's rate limit still answered 429 \(error.code) after the retries (--rate-limit-retries, "
      + "--rate-limit-max-wait): an environment error; run fewer --jobs, declare the tenant's rate_limit in its "
      + "profile, or add `expect: { error.status: 429 }` if the limit is what the step tests"
  }

  static func unexpectedError(_ error: ProtocolError) -> String {
    let status = error.status.map { " (HTTP \($0))" } ?? ""
    let description = error.description.map { ": \"\($0)\"" } ?? ""
    let hint = error.hint.map { " (\($0))" } ?? ""
    return
      "the action failed with '\(error.code)'\(status)\(description)\(hint); add `expect: { error.code: \(error.code) }` if this is the expected outcome"
  }

  /// After an error the step did not expect: how many of its expectations were left unchecked.
  static func notChecked(_ count: Int) -> String {
    guard count > 0 else { return "" }
    return "; \(Plural.count(count, "expectation")) \(count == 1 ? "was" : "were") not checked"
  }

  static func dependencyFailed(_ id: String, status: Status) -> String {
    status == .error
      ? "it needs step '\(id)', which hit an environment error" : "it needs step '\(id)', which did not pass"
  }

  /// What `exists: true` / `exists: false` expect, in the report's `expected` field.
  static func presence(_ wanted: Bool) -> String { wanted ? "present" : "absent" }

  /// What is there instead of a value at `components`: the keys of the deepest object on the path
  /// (`body has: issuer, jwks_uri`: the name one level up is what a typo misses), or what the
  /// deepest value is when it holds no members.
  static func nothingAt(_ components: [String], in result: Value) -> String {
    let (depth, parent) = deepestParent(of: components, in: result)
    let name = depth == 0 ? "the result" : components.prefix(depth).joined(separator: ".")
    guard let members = parent.objectValue else {
      return "nothing at this path (\(name) is \(article(parent.typeName)))"
    }
    guard !members.isEmpty else { return depth == 0 ? "nothing (the result is empty)" : "nothing (\(name) is empty)" }
    let keys = members.keys.sorted()
    let shown = keys.prefix(maxKeysShown).joined(separator: ", ")
    let more = keys.count > maxKeysShown ? ", … (\(keys.count - maxKeysShown) more)" : ""
    let hint =
      keys.count > maxKeysSuggested
      ? "" : components[depth...].first.flatMap { Suggestion.hint(for: $0, in: keys) }.map { "\($0) " } ?? ""
    return "nothing at this path (\(hint)\(name) has: \(shown)\(more))"
  }

  /// A failure message names at most this many keys of the object a path missed in.
  static let maxKeysShown = 30
  /// "Did you mean" looks for a near key only in an object with at most this many (one edit
  /// distance a key; a larger body's near key is more likely chance than a typo).
  static let maxKeysSuggested = 1_000

  /// The longest prefix of `components` that is there (its length and value; the result itself
  /// when none is).
  private static func deepestParent(of components: [String], in result: Value) -> (depth: Int, value: Value) {
    for depth in stride(from: components.count - 1, to: 0, by: -1) {
      if let value = result.lookup(path: Array(components.prefix(depth))) { return (depth, value) }
    }
    return (0, result)
  }

  private static func article(_ typeName: String) -> String {
    typeName == "null" ? "null" : (typeName.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + typeName
  }

  /// A check that held because its path is absent, where the object it missed in has a key one
  /// typo away: `body.eror: { exists: false }` against a body with `error`.
  static func absentNearMiss(path: String, matcher: Matcher.Kind, name: String, near: String) -> String {
    "\(path) is absent, so its \(matcher.rawValue) check held, but '\(near)' is there: if '\(name)' is a misspelling, this "
      + "check passes whatever the tenant answers"
  }
}
