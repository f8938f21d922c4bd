public import AuthFlowCore

/// A YAML document as a located tree: every node knows its `file:line:col`. The first stage of
/// every loader (scenarios, `authflow.yaml`, mock fixtures).
public indirect enum YAMLNode: Sendable {
  case scalar(YAMLScalar)
  case sequence([YAMLNode], SourceLocation)
  case mapping([YAMLPair], SourceLocation)

  public var location: SourceLocation {
    switch self {
    case .scalar(let scalar): return scalar.location
    case .sequence(_, let location), .mapping(_, let location): return location
    }
  }

  /// What a person calls this kind of node in an error message.
  public var kindName: String {
    switch self {
    case .scalar(let scalar): return scalar.value.typeName
    case .sequence: return "list"
    case .mapping: return "mapping"
    }
  }
}

/// A scalar with its resolved YAML type and its quoting style.
public struct YAMLScalar: Sendable {
  /// The source text, after YAML unescaping.
  public var text: String
  /// The typed value: plain scalars resolve to null, bool, int, float or string; quoted ones are strings.
  public var value: Value
  /// True for single- or double-quoted scalars: their text starts one column after `location`.
  public var isQuoted: Bool
  /// True for block scalars (`|`, `>`): their text starts on the next line.
  public var isBlock: Bool
  public var location: SourceLocation

  /// Where the character at `offset` in `text` is in the file, for single-line scalars.
  public func location(ofOffset offset: Int) -> SourceLocation {
    if isBlock { return location }
    return location.advanced(by: offset + (isQuoted ? 1 : 0))
  }
}

/// `key: value` in a mapping, in source order.
public struct YAMLPair: Sendable {
  public var key: YAMLNode
  public var value: YAMLNode

  /// The key's text when the key is a scalar.
  public var keyText: String? {
    if case .scalar(let scalar) = key { return scalar.text }
    return nil
  }
}
