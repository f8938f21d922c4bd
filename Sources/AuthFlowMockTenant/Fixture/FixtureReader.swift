import AuthFlowCore
import AuthFlowYAML

/// Typed, located reads over a YAML tree; every problem becomes a diagnostic, none stops the read.
struct FixtureReader {
  var diagnostics: [Diagnostic] = []

  /// The members of a mapping, by key, after reporting unknown keys (with "did you mean").
  mutating func mapping(_ node: YAMLNode, _ what: String, keys: [String]) -> [String: YAMLNode]? {
    guard case .mapping(let pairs, _) = node else {
      diagnostics.append(FixtureMessages.wrongType(what, expected: "a mapping", found: node))
      return nil
    }
    var members: [String: YAMLNode] = [:]
    for pair in pairs {
      guard let key = pair.keyText else { continue }
      if keys.contains(key) {
        members[key] = pair.value
      } else {
        diagnostics.append(FixtureMessages.unknownKey(key, in: what, at: pair.key.location, known: keys))
      }
    }
    return members
  }

  /// The entries of a mapping keyed by free names (profiles), in source order.
  mutating func entries(_ node: YAMLNode?, _ what: String) -> [(String, YAMLNode)] {
    guard let node else { return [] }
    guard case .mapping(let pairs, _) = node else {
      diagnostics.append(FixtureMessages.wrongType(what, expected: "a mapping", found: node))
      return []
    }
    return pairs.compactMap { pair in pair.keyText.map { ($0, pair.value) } }
  }

  /// The items of a list.
  mutating func list(_ node: YAMLNode?, _ what: String) -> [YAMLNode] {
    guard let node else { return [] }
    guard case .sequence(let items, _) = node else {
      diagnostics.append(FixtureMessages.wrongType(what, expected: "a list", found: node))
      return []
    }
    return items
  }

  mutating func string(_ node: YAMLNode?, _ what: String) -> String? {
    guard let node else { return nil }
    if case .scalar(let scalar) = node, !scalar.value.isNull {
      if case .string(let text) = scalar.value { return text }
      switch scalar.value {
      case .int, .double: return scalar.text
      default: break
      }
    }
    diagnostics.append(FixtureMessages.wrongType(what, expected: "a string", found: node))
    return nil
  }

  mutating func requiredString(_ node: YAMLNode?, _ what: String, in parent: YAMLNode) -> String? {
    guard node != nil else {
      diagnostics.append(FixtureMessages.missingKey(what, at: parent.location))
      return nil
    }
    return string(node, what)
  }

  mutating func int(_ node: YAMLNode?, _ what: String) -> Int? {
    guard let node else { return nil }
    if case .scalar(let scalar) = node, case .int(let number) = scalar.value {
      if InputLimits.fixtureInteger.contains(number) { return number }
      diagnostics.append(FixtureMessages.outOfRange(what, found: number, at: node.location))
      return nil
    }
    diagnostics.append(FixtureMessages.wrongType(what, expected: "an integer", found: node))
    return nil
  }

  mutating func bool(_ node: YAMLNode?, _ what: String) -> Bool? {
    guard let node else { return nil }
    if case .scalar(let scalar) = node, case .bool(let flag) = scalar.value { return flag }
    diagnostics.append(FixtureMessages.wrongType(what, expected: "true or false", found: node))
    return nil
  }

  /// A list of strings; a single string is split on spaces (`scope: openid profile`).
  mutating func strings(_ node: YAMLNode?, _ what: String) -> [String]? {
    guard let node else { return nil }
    if case .scalar(let scalar) = node, case .string(let text) = scalar.value {
      return text.split(separator: " ").map(String.init)
    }
    return list(node, what).compactMap { string($0, what) }
  }

  /// A closed-set string.
  mutating func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode?, _ what: String, as type: T.Type) -> T?
  where T.RawValue == String {
    guard let node, let text = string(node, what) else { return nil }
    if let value = T(rawValue: text) { return value }
    let names = T.allCases.map(\.rawValue)
    diagnostics.append(FixtureMessages.unknownChoice(text, for: what, at: node.location, known: names))
    return nil
  }

  /// Any YAML value as a runtime value (for metadata and claim values).
  func value(_ node: YAMLNode) -> Value {
    switch node {
    case .scalar(let scalar): return scalar.value
    case .sequence(let items, _): return .array(items.map(value))
    case .mapping(let pairs, _):
      var members: [String: Value] = [:]
      for pair in pairs {
        if let key = pair.keyText { members[key] = value(pair.value) }
      }
      return .object(members)
    }
  }

  mutating func object(_ node: YAMLNode?, _ what: String) -> [String: Value]? {
    guard let node else { return nil }
    guard case .mapping = node, case .object(let members) = value(node) else {
      diagnostics.append(FixtureMessages.wrongType(what, expected: "a mapping", found: node))
      return nil
    }
    return members
  }
}

/// The fixture loader's messages.
enum FixtureMessages {
  static func unknownKey(_ key: String, in what: String, at location: SourceLocation, known: [String]) -> Diagnostic {
    .error(
      "unknown key '\(key)' in \(what)", at: location, length: max(1, key.count),
      hint: Suggestion.hint(for: key, in: known) ?? "expected one of: \(known.sorted().joined(separator: ", "))")
  }

  static func wrongType(_ what: String, expected: String, found node: YAMLNode) -> Diagnostic {
    .error("\(what) must be \(expected), found \(node.kindName)", at: node.location)
  }

  static func outOfRange(_ what: String, found number: Int, at location: SourceLocation) -> Diagnostic {
    .error(
      "\(what) must be from \(InputLimits.fixtureInteger.lowerBound) to \(InputLimits.fixtureInteger.upperBound), "
        + "found \(number)", at: location)
  }

  static func missingKey(_ what: String, at location: SourceLocation) -> Diagnostic {
    .error("missing required key '\(what)'", at: location)
  }

  static func unknownChoice(
    _ text: String, for what: String, at location: SourceLocation, known: [String]
  ) -> Diagnostic {
    .error(
      "'\(text)' is not a valid \(what)", at: location, length: max(1, text.count),
      hint: Suggestion.hint(for: text, in: known) ?? "expected one of: \(known.joined(separator: ", "))")
  }

  static func unknownReference(_ name: String, kind: String, at location: SourceLocation, known: [String]) -> Diagnostic
  {
    .error(
      "unknown \(kind) '\(name)'", at: location, length: max(1, name.count),
      hint: Suggestion.hint(for: name, in: known))
  }

  static func duplicate(_ what: String, _ name: String, at location: SourceLocation) -> Diagnostic {
    .error("duplicate \(what) '\(name)'", at: location)
  }
}
