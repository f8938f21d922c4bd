public import AuthFlowCore
public import AuthFlowResults

extension RunReport {
  /// What `--fail-on-skip` counts (docs/running.md): a scenario that did not run (a capability
  /// the tenant lacks, a client it does not define, pinned to another tenant, interrupted), and a
  /// step skipped by its own `if:` in a scenario that otherwise ran. Steps skipped because a step
  /// they need failed are not counted: that scenario has already failed.
  public var skips: [SkipNotice] { skips(limit: .max).notices }

  /// The first `limit` of ``skips``, and how many there are in all: what a long run prints.
  public func skips(limit: Int) -> (notices: [SkipNotice], total: Int) {
    var notices: [SkipNotice] = []
    var total = 0
    func add(_ notice: @autoclosure () -> SkipNotice) {
      total += 1
      if notices.count < limit { notices.append(notice()) }
    }
    for scenario in scenarios {
      if scenario.status == .skipped {
        add(SkipNotice(scenario: scenario.name, step: nil, reason: scenario.skipReason ?? "skipped"))
        continue
      }
      for step in scenario.steps where step.status == .skipped && step.skipReason == StepMessages.conditionFalse {
        add(SkipNotice(scenario: scenario.name, step: step.id, reason: StepMessages.conditionFalse))
      }
    }
    return (notices, total)
  }

  /// The exit code with `--fail-on-skip` applied: a run that would exit 0 but skipped something
  /// exits 1 (the run did not hold: not everything selected ran).
  public func exitCode(failOnSkip: Bool) -> AuthFlowExitCode {
    let code = exitCode
    if failOnSkip, code == .success, skips(limit: 0).total > 0 { return .failure }
    return code
  }
}

/// One thing `--fail-on-skip` counts: a skipped scenario, or a step of it skipped by `if:`.
public struct SkipNotice: Sendable, Hashable, CustomStringConvertible {
  public var scenario: String
  /// The step, when a step (not the whole scenario) was skipped.
  public var step: String?
  public var reason: String

  /// `Login works: skipped (the tenant lacks …)` or `Login works › step 'renew': skipped (…)`.
  public var description: String {
    let subject = step.map { "\(scenario) › step '\($0)'" } ?? scenario
    return "\(subject): skipped (\(reason))"
  }

  /// The line `run --fail-on-skip` prints before exiting 1; `total` counts the notices left out
  /// of a long list.
  public static func failOnSkipMessage(_ notices: [SkipNotice], total: Int? = nil) -> String {
    let total = total ?? notices.count
    let noun = total == 1 ? "thing was" : "things were"
    let more = total > notices.count ? "\n  … and \(total - notices.count) more" : ""
    return "error: --fail-on-skip: \(total) \(noun) skipped:\n"
      + notices.map { "  \($0.description)" }.joined(separator: "\n") + more
  }

  /// How many skips ``failOnSkipMessage(_:total:)`` lists before saying how many more.
  public static let listLimit = 100
}
