import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowScenario

/// The assertions of one step on its result: the answer an action gave when it failed
/// (``answerProblems(of:value:action:findings:at:)``), the protocol rules the tenant broke, and the
/// step's `expect:` — each matcher against the value at its path, an operand that read nothing
/// refused (``ReadsNothingChecks``), and a check that held only by a typo noted.
struct ExpectationCheck {
  let scenario: ScenarioRuntime
  let step: Step

  /// What the step's outcome says beside its expectations, and which expectations are left to
  /// check: an error answer the step did not expect (then only its `response` expectations are
  /// checked), the action's own failure, an ID token that failed validation, the protocol rules the
  /// tenant broke that the step does not test itself, and what the action asks a reviewer.
  func answerProblems(
    of outcome: ActionOutcome, value: Value, action: any Action.Type, findings: StepFindings,
    context: EvaluationContext
  ) -> (problems: [Problem], expectations: [Expectation]) {
    let location = step.action.name.location
    let expected = step.expectations.map(\.components)
    var problems: [Problem] = []
    var expectations = step.expectations
    if case .protocolError(let error, _) = outcome,
      !expectsError() || (error.isRateLimit && !acceptsRateLimit(result: value, context: context))
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
          at: location)
        : Problem(
          .unexpectedError, scenario.scrub(StepMessages.unexpectedError(error) + StepMessages.notChecked(unchecked)),
          at: location, path: "error", actual: scenario.scrub(error.value.display(revealSecrets: scenario.reveal)))
      problems.append(problem)
    }
    if let failure = action.failure(in: value, expectations: expected) {
      let kind: Problem.Kind = failure.failureClass == .environment ? .environment : .action
      problems.append(Problem(kind, scenario.scrub(failure.message), at: location))
    }
    if let failure = IDTokenFailure.unexpected(in: value, expectations: expected) {
      // About the result's `id_token`: a report names the conformance checks it failed by it.
      problems.append(Problem(.action, scenario.scrub(failure), at: location, path: IDTokenFailure.path))
    }
    problems += Self.problems(of: findings.all, expected: expected, at: location).map { problem in
      var problem = problem
      problem.message = scenario.scrub(problem.message)
      return problem
    }
    problems += findings.reviews.map { reason in
      Problem(.review, scenario.scrub(StepMessages.review(reason)), at: location, severity: .warning)
    }
    return (problems, expectations)
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
  func expectsError() -> Bool {
    step.expectations.contains { $0.components.first == ResultField.error.name }
  }

  /// Whether a rate limit's refusal is the answer the step tests: its expectations about which
  /// error it is (`error.code`, `error.status`, or `error` itself) all hold for it. A step that
  /// expects `error.code: invalid_grant` and meets a 429 learnt nothing about its grant: that is
  /// the tenant's capacity (an environment error), not an assertion that failed.
  func acceptsRateLimit(result: Value, context: EvaluationContext) -> Bool {
    let identifying = step.expectations.filter { expectation in
      let components = expectation.components
      guard components.first == ResultField.error.name else { return false }
      return components.count == 1 || components[1] == "code" || components[1] == "status"
    }
    return check(identifying, result: result, context: context).isEmpty
  }

  /// The problems of `expectations` against the step's result, and a warning for each that held
  /// only because its path is absent beside a near key (``nearMiss(_:in:checked:)``).
  func check(_ expectations: [Expectation], result: Value, context: EvaluationContext) -> [Problem] {
    var problems: [Problem] = []
    for expectation in expectations {
      let actual = result.lookup(path: expectation.components)
      let before = problems.count
      problems += check(expectation, actual: actual, result: result, context: context)
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
    _ expectation: Expectation, actual: Value?, result: Value, context: EvaluationContext
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
      if let (_, location) = matcher.operand.chainReadingNothing(
        evaluatedTo: expected, roots: ReadsNothingChecks.answeredRoots)
      {
        problems.append(Problem(.evaluation, StepMessages.operandReadsNothing(matcher.kind), at: location))
        continue
      }
      // `not_equals: "tok-${{ steps.a.body.tokn }}"` compares with "tok-": a check of another value.
      if let location = matcher.operand.interpolationReadingNothing(in: context) {
        problems.append(Problem(.evaluation, StepMessages.interpolatedNothing(matcher.kind), at: location))
        continue
      }
      guard let verb = matcher.kind.failure(expected: expected, actual: actual) else { continue }
      let expectedText = matcher.kind.rule.expectedText(expected, show: scenario.show)
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
}
