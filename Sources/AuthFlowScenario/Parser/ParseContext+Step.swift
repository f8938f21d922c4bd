import AuthFlowCore
import AuthFlowYAML

/// The ids seen so far in a file, to report duplicates with the first definition.
struct StepIDs {
  var seen: [String: SourceLocation] = [:]
}

extension ParseContext {
  /// The keys a step may have besides its one action key.
  static let stepKeys = ["id", "name", "needs", "if", "retry", "timeout", "expect", "save", "severity", "client"]

  /// `steps:` or `cleanup:` — a list of steps.
  mutating func steps(_ node: YAMLNode, for key: String, ids: inout StepIDs) -> [Step] {
    guard case .sequence(let items, _) = node else {
      report(.wrongType(expected: "a list of steps", found: node, for: key))
      return []
    }
    var steps: [Step] = []
    for (index, item) in items.enumerated() {
      let generated = (key == "cleanup" ? "cleanup-" : "step-") + String(index + 1)
      if let step = step(item, generatedID: generated, ids: &ids) {
        steps.append(step)
      }
    }
    return steps
  }

  mutating func step(_ node: YAMLNode, generatedID: String, ids: inout StepIDs) -> Step? {
    guard let pairs = mapping(node, for: nil, expected: "a step (a mapping with an action such as 'http:')")
    else { return nil }
    var known: [String: YAMLPair] = [:]
    var actions: [(key: Located<String>, pair: YAMLPair)] = []
    var reportedUnknown = false
    for (key, pair) in keyedPairs(pairs) {
      if Self.stepKeys.contains(key.value) {
        known[key.value] = pair
      } else if let catalog, catalog[key.value] == nil {
        reportedUnknown = true
        if let hint = Suggestion.hint(for: key.value, in: Self.stepKeys) {
          report(.unknownKey(key.value, in: "a step", at: key.location, hint: hint))
        } else {
          report(.unknownAction(key.value, at: key.location, hint: Suggestion.hint(for: key.value, in: catalog.names)))
          actions.append((key, pair))
        }
      } else if catalog == nil, let hint = Suggestion.hint(for: key.value, in: Self.stepKeys) {
        reportedUnknown = true
        report(.unknownKey(key.value, in: "a step", at: key.location, hint: hint))
      } else {
        actions.append((key, pair))
      }
    }
    let location = pairs.first?.key.location ?? node.location
    if actions.isEmpty, !reportedUnknown {
      report(.noAction(at: location, examples: catalog?.names ?? []))
    } else if actions.count > 1 {
      report(.multipleActions(actions.map(\.key)))
    }

    let id = stepID(known["id"], generated: generatedID, at: location, ids: &ids)
    var step = Step(
      id: id, hasExplicitID: known["id"] != nil && id.value != generatedID,
      action: action(actions.first, at: location), location: location)
    step.name = known["name"].flatMap { string($0.value, for: "name")?.value }
    step.needs = known["needs"].flatMap { stringList($0.value, for: "needs") }
    if let condition = known["if"]?.value {
      step.condition = template(condition)
      step.conditionText = condition.label
    }
    step.retry = known["retry"].flatMap { retry($0.value) }
    step.timeout = known["timeout"].flatMap { duration($0.value, for: "timeout") }
    step.expectations = known["expect"].map { expectations($0.value) } ?? []
    step.save = known["save"].map { bindings($0.value, for: "save") } ?? []
    step.severity = known["severity"].flatMap { severity($0.value) }
    step.client = known["client"].flatMap { string($0.value, for: "client") }
    return step
  }

  /// The step's id: `id:` when it is valid, else the generated `step-N`.
  mutating func stepID(
    _ pair: YAMLPair?, generated: String, at location: SourceLocation, ids: inout StepIDs
  ) -> Located<String> {
    var id = Located(generated, at: location)
    if let pair, let explicit = string(pair.value, for: "id") {
      if !explicit.value.isStepID {
        report(.invalidStepID(explicit.value, at: explicit.location))
      } else if explicit.value.isGeneratedStepID {
        report(.reservedStepID(explicit.value, at: explicit.location))
      } else {
        id = explicit
      }
    }
    if let first = ids.seen[id.value] {
      report(.duplicateStepID(id.value, at: id.location, first: first))
    } else {
      ids.seen[id.value] = id.location
    }
    return id
  }

  /// The action call, its parameters checked against the catalog.
  mutating func action(_ entry: (key: Located<String>, pair: YAMLPair)?, at location: SourceLocation) -> ActionCall {
    guard let (key, pair) = entry else {
      return ActionCall(name: Located("", at: location), parameters: .object([], location))
    }
    if let signature = catalog?[key.value] {
      checkParameters(pair.value, of: signature, at: key)
    }
    let parameters: Template = pair.value.isNull ? .object([], pair.value.location) : template(pair.value)
    return ActionCall(name: key, parameters: parameters)
  }

  /// `retry: { attempts, delay, backoff, until }`.
  mutating func retry(_ node: YAMLNode) -> RetryPolicy? {
    guard let pairs = mapping(node, for: "retry") else { return nil }
    let keys = knownPairs(pairs, allowed: ["attempts", "delay", "backoff", "until"], in: "'retry'")
    var policy = RetryPolicy(attempts: RetryPolicy.defaultAttempts, location: node.location)
    if let attempts = keys["attempts"]?.value {
      if case .int(let count)? = attempts.scalar?.value, InputLimits.retryAttempts.contains(count) {
        policy.attempts = count
      } else {
        report(.invalidRetryAttempts(at: attempts))
      }
    }
    if let delay = keys["delay"], let value = duration(delay.value, for: "delay") {
      policy.delay = value.value
    }
    if let backoff = keys["backoff"]?.value {
      switch backoff.scalar?.value {
      case .int(let factor)? where InputLimits.retryBackoff.contains(Double(factor)): policy.backoff = Double(factor)
      case .double(let factor)? where InputLimits.retryBackoff.contains(factor): policy.backoff = factor
      default: report(.invalidBackoff(at: backoff))
      }
    }
    policy.until = keys["until"].map { template($0.value) }
    return policy
  }
}

extension RetryPolicy {
  /// The number of attempts when `retry:` does not say: 3.
  public static let defaultAttempts = 3
}

extension String {
  /// A valid explicit step id: letters, digits, `_` and `-`, starting with a letter or `_`.
  var isStepID: Bool {
    guard let first = unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return unicodeScalars.allSatisfy {
      $0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
    }
  }

  /// `step-N` or `cleanup-N`: the shape of generated ids.
  var isGeneratedStepID: Bool {
    for prefix in ["step-", "cleanup-"] where hasPrefix(prefix) {
      let rest = dropFirst(prefix.count)
      return !rest.isEmpty && rest.allSatisfy(\.isASCIIDigitCharacter)
    }
    return false
  }
}

extension Character {
  var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
