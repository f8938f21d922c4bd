import AuthFlowCore
import AuthFlowExpression
import AuthFlowYAML

// The parser's messages, one factory per kind of problem. They are read by QA engineers: say what
// is wrong in their words, and how to fix it.
extension Diagnostic {
  static func unknownKey(_ key: String, in context: String, at location: SourceLocation, hint: String?) -> Diagnostic {
    .error("unknown key '\(key)' in \(context)", at: location, length: key.count, hint: hint)
  }

  static func wrongType(expected: String, found node: YAMLNode, for key: String?) -> Diagnostic {
    // A key is quoted; a phrase ("an item of 'tags'") is not.
    let subject: String
    switch key {
    case nil: subject = ""
    case let phrase? where phrase.contains(" "): subject = " for \(phrase)"
    case let key?: subject = " for '\(key)'"
    }
    return .error(
      "expected \(expected)\(subject), found \(node.foundDescription)", at: node.location,
      length: node.underlineLength)
  }

  static func missingKey(_ key: String, in context: String, at location: SourceLocation, hint: String) -> Diagnostic {
    .error("missing required key '\(key)' in \(context)", at: location, hint: hint)
  }

  static func nonScalarKey(at location: SourceLocation) -> Diagnostic {
    .error("a key must be a plain string", at: location, hint: "write the key as text, e.g. 'name:'")
  }

  static func invalidDuration(_ text: String, for key: String, at location: SourceLocation, length: Int) -> Diagnostic {
    .error(
      "'\(text)' is not a duration (for '\(key)')", at: location, length: length,
      hint: "write a number with a unit: 250ms, 90s, 5m or 2h")
  }

  static func expression(_ error: ExpressionError, in scalar: YAMLScalar) -> Diagnostic {
    .error(
      "invalid expression: \(error.message)", at: scalar.location(ofOffset: error.offset),
      length: max(1, error.length), hint: error.hint)
  }

  static func emptyFile(at location: SourceLocation) -> Diagnostic {
    .error("the file is empty", at: location, hint: "a scenario needs at least 'scenario:' and 'steps:'")
  }

  static func noSteps(at location: SourceLocation) -> Diagnostic {
    .error("the scenario has no steps", at: location, hint: "add at least one step under 'steps:'")
  }

  static func emptyMatrixAxis(_ name: String, at location: SourceLocation) -> Diagnostic {
    .error(
      "matrix '\(name)' has no values", at: location, length: name.count,
      hint: "list the values it takes, e.g. \(name): [a, b]")
  }

  static func invalidNumber(_ key: String, expected: String, at node: YAMLNode) -> Diagnostic {
    .error(
      "expected \(expected) for '\(key)', found \(node.scalar?.text ?? node.foundDescription)", at: node.location,
      length: node.underlineLength)
  }
}

// Steps and actions.
extension Diagnostic {
  static func noAction(at location: SourceLocation, examples: [String]) -> Diagnostic {
    let hint =
      examples.isEmpty
      ? "add the action to run, e.g. 'http:'"
      : "add the action to run, e.g. " + examples.prefix(3).map { "'\($0):'" }.joined(separator: " or ")
    return .error("the step has no action", at: location, hint: hint)
  }

  static func multipleActions(_ names: [Located<String>]) -> Diagnostic {
    let listed = names.map { "'\($0.value)'" }.joined(separator: " and ")
    let first = names.first
    let notes = names.dropFirst().map { Note("'\($0.value)' is here", at: $0.location) }
    return .error(
      "a step runs exactly one action, found \(listed)", at: first?.location, length: first?.value.count ?? 1,
      notes: notes, hint: "split it into one step per action")
  }

  static func unknownAction(_ name: String, at location: SourceLocation, hint: String?) -> Diagnostic {
    .error("unknown action '\(name)'", at: location, length: name.count, hint: hint)
  }

  static func unknownParameter(
    _ name: String, action: String, at location: SourceLocation, hint: String?
  ) -> Diagnostic {
    .error("unknown parameter '\(name)' for action '\(action)'", at: location, length: name.count, hint: hint)
  }

  static func missingParameter(
    _ name: String, action: String, at location: SourceLocation, length: Int, summary: String
  ) -> Diagnostic {
    let hint = summary.isEmpty ? "add '\(name):'" : "add '\(name):' (\(summary))"
    return .error(
      "action '\(action)' is missing the required parameter '\(name)'", at: location, length: length, hint: hint)
  }

  static func parameterType(
    _ path: String, action: String, expected: ParameterType, found node: YAMLNode, hint: String? = nil
  ) -> Diagnostic {
    .error(
      "\(subject(path, action: action)) must be \(expected.description), found \(node.foundDescription)",
      at: node.location, length: node.underlineLength, hint: hint)
  }

  /// What a parameter's message calls it: `parameter 'for' of action 'wait'`, or, for the short
  /// form (`wait: 2s`, whose value is the action's own), `'wait'`: the short form names no
  /// parameter, so the message names none either.
  static func subject(_ path: String, action: String) -> String {
    path == action ? "'\(action)'" : "parameter '\(path)' of action '\(action)'"
  }

  static func notAChoice(
    _ text: String, parameter path: String, action: String, choices: [String], at node: YAMLNode
  ) -> Diagnostic {
    .error(
      "'\(text)' is not a valid value for \(subject(path, action: action))", at: node.location,
      length: node.underlineLength,
      hint: Suggestion.hint(for: text, in: choices)
        ?? "use one of " + choices.map { "'\($0)'" }.joined(separator: ", "))
  }

  static func scalarNotAccepted(_ action: String, found node: YAMLNode) -> Diagnostic {
    .error(
      "action '\(action)' takes a mapping of parameters, found \(node.foundDescription)", at: node.location,
      length: node.underlineLength, hint: "write its parameters as '\(action): { name: value }'")
  }

  static func invalidStepID(_ id: String, at location: SourceLocation) -> Diagnostic {
    .error(
      "'\(id)' is not a valid step id", at: location, length: max(1, id.count),
      hint: "use letters, digits, '_' and '-', starting with a letter or '_'")
  }

  static func reservedStepID(_ id: String, at location: SourceLocation) -> Diagnostic {
    .error(
      "'\(id)' is reserved for generated step ids", at: location, length: id.count,
      hint: "choose a name that says what the step does, e.g. 'login'")
  }

  static func duplicateStepID(_ id: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
    .error(
      "duplicate step id '\(id)'", at: location, length: id.count,
      notes: [Note("'\(id)' first defined here", at: first)], hint: "give every step its own id")
  }

  static func invalidRetryAttempts(at node: YAMLNode) -> Diagnostic {
    .error(
      "retry 'attempts' must be a whole number from \(InputLimits.retryAttempts.lowerBound) to "
        + "\(InputLimits.retryAttempts.upperBound), found \(node.scalar?.text ?? node.foundDescription)",
      at: node.location, length: node.underlineLength, hint: "e.g. 'attempts: 5'")
  }

  static func invalidBackoff(at node: YAMLNode) -> Diagnostic {
    .error(
      "retry 'backoff' must be a number from \(Int(InputLimits.retryBackoff.lowerBound)) to "
        + "\(Int(InputLimits.retryBackoff.upperBound)), found \(node.scalar?.text ?? node.foundDescription)",
      at: node.location, length: node.underlineLength, hint: "1 keeps the delay constant; 2 doubles it each time")
  }
}

// Expectations and matchers.
extension Diagnostic {
  static func unknownMatcher(_ name: String, at location: SourceLocation) -> Diagnostic {
    let names = Matcher.Kind.allCases.map(\.rawValue)
    let equals = "to compare with an object that has the key '\(name)', write 'equals: { \(name): … }'"
    let listed = "the matchers are \(names.joined(separator: ", ")); \(equals)"
    let hint: String
    if let negated = negation(of: name, in: names) {
      hint = negated.map { "\($0). Or, \(equals)" } ?? listed
    } else if let known = otherToolsNames[Self.normalizedMatcherName(name)] {
      hint = "did you mean '\(known)'? Or, \(equals)"
    } else {
      hint = Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'? Or, \(equals)" } ?? listed
    }
    return .error("unknown matcher '\(name)'", at: location, length: name.count, hint: hint)
  }

  /// The names other tools (Hurl, Step CI, Tavern, Jest, Chai, JSON Schema) give the matchers,
  /// spelt out where authflow abbreviates: `greater_than` is `gt`. Keys are normalised
  /// (``normalizedMatcherName(_:)``); an edit distance cannot find these.
  static let otherToolsNames: [String: String] = [
    "greaterthan": "gt", "greater": "gt", "above": "gt", "morethan": "gt", "tobegreaterthan": "gt",
    "greaterthanorequal": "gte", "greaterthanorequalto": "gte", "greaterorequal": "gte", "least": "gte",
    "atleast": "gte", "min": "gte", "minimum": "gte", "ge": "gte",
    "lessthan": "lt", "less": "lt", "below": "lt", "tobelessthan": "lt",
    "lessthanorequal": "lte", "lessthanorequalto": "lte", "lessorequal": "lte", "atmost": "lte", "max": "lte",
    "maximum": "lte", "le": "lte",
    "eq": "equals", "equal": "equals", "is": "equals", "tobe": "equals", "toequal": "equals", "value": "equals",
    "ne": "not_equals", "neq": "not_equals", "notequal": "not_equals", "notequalto": "not_equals",
    "regex": "matches", "match": "matches", "pattern": "matches", "tomatch": "matches",
    "includes": "contains", "include": "contains", "tocontain": "contains", "has": "contains",
    "in": "one_of", "oneof": "one_of", "anyof": "one_of", "enum": "one_of", "isoneof": "one_of",
    "startswith": "starts_with", "prefix": "starts_with", "beginswith": "starts_with",
    "exist": "exists", "present": "exists", "defined": "exists", "isdefined": "exists", "tobedefined": "exists",
    "istype": "type", "typeof": "type", "isa": "type",
  ]

  /// A matcher name as ``otherToolsNames`` keys it: lower case, without `_`, `-` and spaces.
  static func normalizedMatcherName(_ name: String) -> String {
    String(name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
  }

  /// The opposite of each ordering matcher, which stands for its negation.
  static let oppositeOrdering = ["gt": "lte", "gte": "lt", "lt": "gte", "lte": "gt"]

  /// For a name negated the way other languages write it (`!contains`, `not contains`,
  /// `notContains`): what to write instead — the negated matcher (`not_contains`), an ordering's
  /// opposite (`!gt` → `lte`), `exists: false` — and never the positive matcher, which means the
  /// opposite; `.some(nil)` when the negation has no form. Nil when the name is not negated so.
  static func negation(of name: String, in names: [String]) -> String?? {
    let lowered = name.lowercased()
    let positive: Substring
    if lowered.hasPrefix("!") {
      positive = lowered.dropFirst().drop { $0 == " " }
    } else if lowered.hasPrefix("not ") || lowered.hasPrefix("not-") {
      positive = lowered.dropFirst(4)
    } else if name.hasPrefix("not"), name.dropFirst(3).first?.isUppercase == true {
      positive = lowered.dropFirst(3)
    } else {
      return nil
    }
    let snake = positive.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
    guard let known = Suggestion.closest(to: snake, in: names.filter { !$0.hasPrefix("not_") }) else {
      return .some(nil)
    }
    if names.contains("not_" + known) { return "did you mean 'not_\(known)'?" }
    if let opposite = oppositeOrdering[known] { return "did you mean '\(opposite)'? (the negation of '\(known)')" }
    if known == "exists" { return "write 'exists: false'" }
    return .some(nil)
  }

  static func emptyMatchers(at node: YAMLNode) -> Diagnostic {
    .error(
      "an expectation needs at least one matcher, found an empty mapping", at: node.location,
      length: node.underlineLength, hint: "to compare with an empty object, write 'equals: {}'")
  }

  static func invalidSeverity(_ text: Located<String>) -> Diagnostic {
    .error(
      "'\(text.value)' is not a severity", at: text.location, length: max(1, text.value.count),
      hint: Suggestion.hint(for: text.value, in: CheckSeverity.allCases.map { $0.rawValue })
        ?? "write 'severity: warning' (a SHOULD: reported, the step passes) or 'severity: error' (the default)")
  }

  static func severityWithoutMatcher(at key: Located<String>) -> Diagnostic {
    .error(
      "'severity' needs a matcher beside it", at: key.location, length: key.value.count,
      hint: "write e.g. '{ equals: …, severity: warning }', or 'equals: { severity: … }' to compare with an object")
  }

  static func invalidRegex(_ pattern: String, reason: String, at node: YAMLNode) -> Diagnostic {
    .error(
      "invalid regular expression '\(pattern)': \(reason)", at: node.location, length: node.underlineLength,
      hint: "escape special characters such as '.', '(' and '[' with a backslash")
  }

  static func invalidMatcherOperand(_ matcher: String, expected: String, found node: YAMLNode) -> Diagnostic {
    .error(
      "'\(matcher)' expects \(expected), found \(node.foundDescription)", at: node.location,
      length: node.underlineLength)
  }

  static func unknownTypeName(_ name: String, at node: YAMLNode, choices: [String]) -> Diagnostic {
    .error(
      "unknown type '\(name)'", at: node.location, length: node.underlineLength,
      hint: Suggestion.hint(for: name, in: choices) ?? "use one of " + choices.joined(separator: ", "))
  }

  static func invalidPath(_ path: String, reason: String, at location: SourceLocation) -> Diagnostic {
    .error(
      "invalid path '\(path)': \(reason)", at: location, length: max(1, path.count),
      hint: "write a dotted path such as 'id_token.claims.email', with [\"…\"] around keys that contain dots")
  }
}

extension Diagnostic {
  static func invalidName(_ name: String, for key: String, at location: SourceLocation) -> Diagnostic {
    .error(
      "'\(name)' cannot be used as a name under '\(key)'", at: location, length: max(1, name.count),
      hint:
        "use letters, digits and '_', starting with a letter, so that it can be read as \(key == "matrix" ? "matrix" : "vars").\(name.isEmpty ? "NAME" : "name")"
    )
  }
}
