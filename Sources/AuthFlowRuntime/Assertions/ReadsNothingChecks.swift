import AuthFlowCore
import AuthFlowExpression
import AuthFlowResults
import AuthFlowScenario

/// The "reads nothing" checks: a name that read nothing (a misspelt field, a step that did not
/// run) must not decide a step silently — sent as a parameter, deciding a false `if:` or `until:`,
/// or standing on one side of an inequality, it is an evaluation problem at the name. The matchers'
/// operands get the same checks in ``ExpectationCheck``.
enum ReadsNothingChecks {
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
}
