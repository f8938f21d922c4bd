public import AuthFlowCore

extension RunReport {
  /// The report with every free-text field passed through `secrets.scrub` and every string inside
  /// step results scrubbed (secret-wrapped values stay wrapped: `jsonText(revealSecrets:)` masks
  /// them). Reporters render only this, and escape for their format afterwards, so a secret can't
  /// slip through in an escaped form. With `--show-secrets` it is the report unchanged.
  public func redacted(by secrets: SecretRegistry) -> RunReport {
    secrets.revealSecrets ? self : mappingTexts(secrets.scrub)
  }

  /// The report with `transform` applied to every text: tenant, names, files, tags, skip reasons,
  /// step ids (and the ids steps refer to), problem texts, HTTP exchanges, and the strings and keys
  /// inside step results. Scenarios read back from a spool are transformed as each is read.
  public func mappingTexts(_ transform: @escaping @Sendable (String) -> String) -> RunReport {
    var copy = self
    copy.tenant = transform(tenant)
    copy.scenarios = scenarios.mapping { $0.mappingTexts(transform) }
    return copy
  }
}

extension ScenarioReport {
  /// The scenario with every text scrubbed; see ``RunReport/redacted(by:)``.
  public func redacted(by secrets: SecretRegistry) -> ScenarioReport {
    secrets.revealSecrets ? self : mappingTexts(secrets.scrub)
  }

  /// The scenario with `transform` applied to every text its report fields declare as text
  /// (``ReportModel/scenario``): the one place that decides what redaction passes over.
  public func mappingTexts(_ transform: (String) -> String) -> ScenarioReport {
    ReportModel.scenario.mappingTexts(self, transform)
  }
}

extension StepReport {
  /// The step with every text scrubbed, as ``ScenarioReport/redacted(by:)`` scrubs its steps (an
  /// observer that keeps steps apart from their scenario).
  public func redacted(by secrets: SecretRegistry) -> StepReport {
    secrets.revealSecrets ? self : ReportModel.step.mappingTexts(self, secrets.scrub)
  }
}

extension Value {
  /// The value with `transform` applied to every plain string and object key. Secrets stay
  /// wrapped as they are (the serializer masks them whole).
  public func mappingStrings(_ transform: (String) -> String) -> Value {
    switch self {
    case .string(let text): return .string(transform(text))
    case .array(let items): return .array(items.map { $0.mappingStrings(transform) })
    case .object(let members):
      var mapped: [String: Value] = [:]
      for (key, member) in members { mapped[transform(key)] = member.mappingStrings(transform) }
      return .object(mapped)
    case .secret, .jwt, .null, .bool, .int, .double: return self
    }
  }
}

extension RunReport {
  /// The report with every JWT in step results written out as the scenario reads it
  /// (``AuthFlowCore/Value/expandingTokens()``), so that redaction scrubs its claims like any text
  /// and reports can show them.
  public func expandingTokens() -> RunReport {
    var copy = self
    copy.scenarios = scenarios.mapping { $0.expandingTokens() }
    return copy
  }
}

extension ScenarioReport {
  /// The scenario with every JWT in its step results written out (``RunReport/expandingTokens()``).
  public func expandingTokens() -> ScenarioReport {
    var copy = self
    for step in copy.steps.indices {
      copy.steps[step].result = copy.steps[step].result?.expandingTokens()
    }
    return copy
  }
}

extension Value {
  /// The value with each JWT replaced by what `steps.X.id_token` reads as: `{ raw (secret),
  /// header, claims, signature_valid }`. The token itself stays secret; the claims become plain
  /// values (scrubbed like every text by ``RunReport/redacted(by:)``).
  public func expandingTokens() -> Value {
    switch self {
    case .jwt(let token):
      return .object([
        "raw": .secret(.string(token.raw)), "header": .object(token.header).expandingTokens(),
        "claims": .object(token.claims).expandingTokens(),
        "signature_valid": token.signatureValid.map(Value.bool) ?? .null,
      ])
    case .array(let items): return .array(items.map { $0.expandingTokens() })
    case .object(let members): return .object(members.mapValues { $0.expandingTokens() })
    case .secret(let inner): return inner.containsJWT ? inner.expandingTokens().wrappingLeaves : self
    case .null, .bool, .int, .double, .string: return self
    }
  }

  private var containsJWT: Bool {
    switch self {
    case .jwt: true
    case .array(let items): items.contains { $0.containsJWT }
    case .object(let members): members.values.contains { $0.containsJWT }
    case .secret(let inner): inner.containsJWT
    default: false
    }
  }

  /// A secret that held a JWT: the expanded token keeps its raw form secret; other leaves stay
  /// secret too.
  private var wrappingLeaves: Value {
    switch self {
    case .object(let members): .object(members.mapValues(\.wrappingLeaves))
    case .array(let items): .array(items.map(\.wrappingLeaves))
    case .secret: self
    default: .secret(self)
    }
  }
}
