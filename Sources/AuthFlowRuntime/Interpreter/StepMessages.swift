import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowScenario

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
