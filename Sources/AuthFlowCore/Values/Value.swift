/// A runtime value: a JSON value, plus the two kinds the runtime tracks.
///
/// - `secret` wraps a value that must never be printed (passwords, client secrets, codes, opaque
///   tokens). Anything derived from a secret's text stays secret.
/// - `jwt` is a secret whose `header`, `claims` and `signature_valid` can be read. The raw compact
///   serialization is secret; the decoded header and claims are not (anyone holding the token can
///   read them, and assertions need to show them).
public indirect enum Value: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([Value])
  case object([String: Value])
  case secret(Value)
  case jwt(JWTValue)
}

extension Value {
  /// The value with any `secret` wrapper removed (JWTs become their raw string).
  public var revealed: Value {
    switch self {
    case .secret(let inner): return inner.revealed
    case .jwt(let token): return .string(token.raw)
    case .array(let items): return .array(items.map(\.revealed))
    case .object(let members): return .object(members.mapValues(\.revealed))
    default: return self
    }
  }

  /// True when the value is, or contains, a secret.
  public var containsSecret: Bool {
    switch self {
    case .secret, .jwt: return true
    case .array(let items): return items.contains { $0.containsSecret }
    case .object(let members): return members.values.contains { $0.containsSecret }
    default: return false
    }
  }

  /// True for `secret` and `jwt` at the top level.
  public var isSecret: Bool {
    switch self {
    case .secret, .jwt: return true
    default: return false
    }
  }

  /// Wraps the value as a secret unless it already is one, or is null.
  public var asSecret: Value {
    switch self {
    case .secret, .jwt, .null: return self
    default: return .secret(self)
    }
  }

  /// The value with the top-level secret wrapper removed; JWTs stay JWTs.
  public var unwrapped: Value {
    if case .secret(let inner) = self { return inner.unwrapped }
    return self
  }

  /// A string view, revealing secrets; nil for non-strings.
  public var stringValue: String? {
    switch unwrapped {
    case .string(let text): return text
    case .jwt(let token): return token.raw
    default: return nil
    }
  }

  public var boolValue: Bool? {
    if case .bool(let flag) = unwrapped { return flag }
    return nil
  }

  public var intValue: Int? {
    switch unwrapped {
    case .int(let number): return number
    case .double(let number) where number.rounded() == number && abs(number) < 9e15: return Int(number)
    default: return nil
    }
  }

  public var doubleValue: Double? {
    switch unwrapped {
    case .int(let number): return Double(number)
    case .double(let number): return number
    default: return nil
    }
  }

  public var arrayValue: [Value]? {
    if case .array(let items) = unwrapped { return items }
    return nil
  }

  public var objectValue: [String: Value]? {
    if case .object(let members) = unwrapped { return members }
    return nil
  }

  public var isNull: Bool {
    if case .null = unwrapped { return true }
    return false
  }

  /// The name of the value's type as the `type` matcher and error messages spell it.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "bool"
    case .int: return "int"
    case .double: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    case .secret(let inner): return inner.typeName
    case .jwt: return "jwt"
    }
  }

  /// Truthiness for `if` and `until`: false, null, 0, "" and empty collections are false.
  public var isTruthy: Bool {
    switch unwrapped {
    case .null: return false
    case .bool(let flag): return flag
    case .int(let number): return number != 0
    case .double(let number): return number != 0
    case .string(let text): return !text.isEmpty
    case .array(let items): return !items.isEmpty
    case .object(let members): return !members.isEmpty
    case .jwt: return true
    case .secret(let inner): return inner.isTruthy
    }
  }

  /// Member access as the expression language and `expect` paths do it. JWTs expose `header`,
  /// `claims`, `signature_valid` and `raw`; secrets propagate to their members.
  public func member(_ name: String) -> Value? {
    switch self {
    case .object(let members): return members[name]
    case .secret(let inner): return inner.member(name).map(\.asSecret)
    case .jwt(let token): return token.member(name)
    case .array(let items):
      if let index = Int(name), items.indices.contains(index) { return items[index] }
      if name == "length" { return .int(items.count) }
      return nil
    default: return nil
    }
  }

  /// Index access: integer index into arrays (negative counts from the end), string key into objects.
  public func index(_ key: Value) -> Value? {
    switch (self, key.unwrapped) {
    case (.array(let items), .int(let index)):
      let resolved = index < 0 ? items.count + index : index
      return items.indices.contains(resolved) ? items[resolved] : nil
    case (.secret(let inner), _): return inner.index(key).map(\.asSecret)
    case (_, .string(let name)): return member(name)
    default: return nil
    }
  }

  /// Follows a dotted path such as `id_token.claims.email` or `body.items.0.id`.
  public func lookup(path: [String]) -> Value? {
    var current: Value = self
    for component in path {
      guard let next = current.member(component) else { return nil }
      current = next
    }
    return current
  }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByFloatLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(nilLiteral: ()) { self = .null }
  public init(arrayLiteral elements: Value...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, Value)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
