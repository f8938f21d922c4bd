import AuthFlowCore
import Foundation

/// `keys(object)`.
struct KeysFunction: ExpressionFunction {
  static let name = "keys"
  static let arity = 1...1
  static let signature = "keys(object)"
  static let summary = "The member names of an object, sorted (a JWT's claims, a response body)."
  static let examples = [
    FunctionExample(#"keys(json('{"b": 1, "a": 2}'))"#, ["a", "b"]),
    FunctionExample("keys(json('{}'))", []),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    guard let members = arguments[0].objectValue else {
      throw .argumentType(function: Self.name, position: 1, expected: "an object", got: arguments[0])
    }
    return .array(members.keys.sorted().map(Value.string))
  }
}

/// `difference(list, other)`.
struct DifferenceFunction: ExpressionFunction {
  static let name = "difference"
  static let arity = 2...2
  static let signature = "difference(list, other)"
  static let summary = "The items of the list that are not in the other, in order (the claims no rule allows)."
  static let examples = [
    FunctionExample("difference(['iss', 'sub', 'name'], ['iss', 'sub'])", ["name"]),
    FunctionExample("difference([1, 2], [1, 2, 3])", []),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    guard let items = arguments[0].arrayValue else {
      throw .argumentType(function: Self.name, position: 1, expected: "a list", got: arguments[0])
    }
    guard let others = arguments[1].arrayValue else {
      throw .argumentType(function: Self.name, position: 2, expected: "a list", got: arguments[1])
    }
    let excluded = Set(others.map(\.revealed))
    return .array(items.filter { !excluded.contains($0.revealed) })
  }
}

/// `entropy_bits(text)`.
struct EntropyBitsFunction: ExpressionFunction {
  static let name = "entropy_bits"
  static let arity = 1...1
  static let signature = "entropy_bits(text)"
  static let summary =
    "The Shannon entropy of a text's characters times its length, in bits: how the OpenID conformance suite judges "
    + "whether a code or token is random enough (more than 96 bits, RFC 6749 §10.10)."
  static let examples = [
    FunctionExample("entropy_bits('aaaa')", 0),
    FunctionExample("entropy_bits('abcd')", 8),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let text = try Self.text(arguments, 0)
    let characters = Array(text)
    guard !characters.isEmpty else { return .int(0) }
    var counts: [Character: Int] = [:]
    for character in characters { counts[character, default: 0] += 1 }
    let length = Double(characters.count)
    let perCharacter = counts.values.reduce(0.0) { sum, count in
      let probability = Double(count) / length
      return sum - probability * log2(probability)
    }
    let bits = perCharacter * length
    // Whole bits when whole (the examples, and equality in scenarios), else the exact value.
    return bits.rounded() == bits && abs(bits) < 1e15 ? .int(Int(bits)) : .double(bits)
  }
}

/// `join(list, separator)`.
struct JoinFunction: ExpressionFunction {
  static let name = "join"
  static let arity = 2...2
  static let signature = "join(list, separator)"
  static let summary = "The list's texts and numbers joined with the separator (acr_values from a discovery list)."
  static let examples = [
    FunctionExample("join(['1', '2'], ' ')", "1 2"),
    FunctionExample("join([], ',')", ""),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    guard let items = arguments[0].arrayValue else {
      throw .argumentType(function: Self.name, position: 1, expected: "a list", got: arguments[0])
    }
    let separator = try Self.text(arguments, 1)
    var parts: [String] = []
    for item in items {
      switch item.revealed {
      case .string(let text): parts.append(text)
      case .int(let number): parts.append(String(number))
      case .double(let number): parts.append(String(number))
      case .bool(let flag): parts.append(String(flag))
      default:
        throw .argumentType(function: Self.name, position: 1, expected: "a list of texts or numbers", got: item)
      }
    }
    // Joined secrets stay secret.
    return Self.text(parts.joined(separator: separator), derivedFrom: arguments[0], arguments[1])
  }
}

/// `split(text, separator)`.
struct SplitFunction: ExpressionFunction {
  static let name = "split"
  static let arity = 2...2
  static let signature = "split(text, separator)"
  static let summary =
    "The text's parts between separators, empty parts dropped (the scopes of a scope string). "
    + "The separator must not be empty."
  static let examples = [
    FunctionExample("split('openid  email', ' ')", ["openid", "email"]),
    FunctionExample("split('', ' ')", []),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let text = try Self.text(arguments, 0)
    let separator = try Self.text(arguments, 1)
    guard !separator.isEmpty else {
      throw .argumentType(
        function: Self.name, position: 2, expected: "a separator that is not empty", got: arguments[1])
    }
    let secret = arguments[0].containsSecret
    return .array(
      text.components(separatedBy: separator).filter { !$0.isEmpty }.map { secret ? .secret(.string($0)) : .string($0) }
    )
  }
}
