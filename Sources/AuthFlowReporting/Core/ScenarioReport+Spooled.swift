public import AuthFlowCore
public import AuthFlowResults

extension ScenarioReport {
  /// What the run's ``ScenarioSpool`` keeps of a finished scenario: the report as reporters render
  /// it — step results dropped unless `keepingResults`, tokens expanded, every text scrubbed by
  /// `secrets` — with each secret-wrapped value replaced by the mask (by its value with
  /// `--show-secrets`), so the spool file holds nothing the reports would not.
  ///
  /// Read back, it renders as the report itself would: a masked value is written `"***"` either
  /// way, and reporters scrub again at the end with every secret the run learnt by then. (One
  /// difference: the HTML report's date beside a token time claim that was itself wrapped as a
  /// secret is not shown, since the spool no longer has the number.)
  public func spooled(secrets: SecretRegistry, keepingResults: Bool) -> ScenarioReport {
    var report = (keepingResults ? self : droppingStepResults()).expandingTokens().redacted(by: secrets)
    let reveal = secrets.revealSecrets
    for step in report.steps.indices {
      report.steps[step].result = report.steps[step].result?.settlingSecrets(reveal: reveal)
    }
    return report
  }
}

extension Value {
  /// The value with every secret (and JWT) replaced by the mask, or by its plain value when
  /// `reveal`: what `jsonText(revealSecrets: reveal)` would write, as plain JSON.
  func settlingSecrets(reveal: Bool) -> Value {
    switch self {
    case .secret(let inner): reveal ? inner.settlingSecrets(reveal: true) : .string(Redaction.mask)
    case .jwt(let token): .string(reveal ? token.raw : Redaction.mask)
    case .array(let items): .array(items.map { $0.settlingSecrets(reveal: reveal) })
    case .object(let members): .object(members.mapValues { $0.settlingSecrets(reveal: reveal) })
    case .null, .bool, .int, .double, .string: self
    }
  }
}
