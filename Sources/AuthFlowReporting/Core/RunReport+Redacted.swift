public import AuthFlowCore
public import AuthFlowRuntime

extension RunReport {
  /// The report with every free-text field passed through `secrets.scrub` and every string inside
  /// step results scrubbed (secret-wrapped values stay wrapped: `jsonText(revealSecrets:)` masks
  /// them). Reporters render only this, and escape for their format afterwards, so a secret can't
  /// slip through in an escaped form. With `--show-secrets` it is the report unchanged.
  public func redacted(by secrets: SecretRegistry) -> RunReport {
    guard !secrets.revealSecrets else { return self }
    var copy = self
    copy.tenant = secrets.scrub(tenant)
    copy.scenarios = scenarios.map { $0.redacted(by: secrets) }
    return copy
  }
}

extension ScenarioReport {
  /// The scenario with every text scrubbed; see ``AuthFlowRuntime/RunReport/redacted(by:)``.
  public func redacted(by secrets: SecretRegistry) -> ScenarioReport {
    guard !secrets.revealSecrets else { return self }
    var copy = self
    copy.name = secrets.scrub(name)
    copy.file = secrets.scrub(file)
    copy.location = location.redacted(by: secrets)
    copy.tags = tags.map(secrets.scrub)
    copy.skipReason = skipReason.map(secrets.scrub)
    copy.steps = steps.map { $0.redacted(by: secrets) }
    return copy
  }
}

extension StepReport {
  func redacted(by secrets: SecretRegistry) -> StepReport {
    var copy = self
    copy.id = secrets.scrub(id)
    copy.name = secrets.scrub(name)
    copy.action = secrets.scrub(action)
    copy.location = location.redacted(by: secrets)
    copy.skipReason = skipReason.map(secrets.scrub)
    copy.problems = problems.map { $0.redacted(by: secrets) }
    copy.result = result.map { $0.scrubbed(by: secrets) }
    return copy
  }
}

extension Problem {
  func redacted(by secrets: SecretRegistry) -> Problem {
    Problem(
      kind, secrets.scrub(message), at: location?.redacted(by: secrets), path: path.map(secrets.scrub),
      matcher: matcher.map(secrets.scrub), expected: expected.map(secrets.scrub), actual: actual.map(secrets.scrub))
  }
}

extension SourceLocation {
  func redacted(by secrets: SecretRegistry) -> SourceLocation {
    SourceLocation(file: secrets.scrub(file), line: line, column: column)
  }
}

extension Value {
  /// The value with every plain string (and object key) scrubbed. Secrets stay wrapped as they are.
  func scrubbed(by secrets: SecretRegistry) -> Value {
    switch self {
    case .string(let text): return .string(secrets.scrub(text))
    case .array(let items): return .array(items.map { $0.scrubbed(by: secrets) })
    case .object(let members):
      var scrubbed: [String: Value] = [:]
      for (key, member) in members { scrubbed[secrets.scrub(key)] = member.scrubbed(by: secrets) }
      return .object(scrubbed)
    case .secret, .jwt, .null, .bool, .int, .double: return self
    }
  }
}
