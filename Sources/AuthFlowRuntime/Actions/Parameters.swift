public import AuthFlowCore

/// Typed reads of an action's evaluated parameters, with messages that name the parameter.
public struct Parameters: Sendable {
  public let value: Value

  public init(_ value: Value) {
    self.value = value
  }

  /// The member named `name`, or nil when absent or null.
  public subscript(name: String) -> Value? {
    guard let member = value.member(name), !member.isNull else { return nil }
    return member
  }

  public func string(_ name: String) throws(ActionError) -> String? {
    guard let member = self[name] else { return nil }
    switch member.unwrapped {
    case .string(let text): return text
    case .int(let number): return String(number)
    case .double(let number): return String(number)
    case .bool(let flag): return String(flag)
    case .jwt(let token): return token.raw
    default: throw .invalidParameter(name, "expected a string, found \(member.typeName)")
    }
  }

  public func requiredString(_ name: String) throws(ActionError) -> String {
    guard let text = try string(name) else { throw .invalidParameter(name, "is required") }
    return text
  }

  public func bool(_ name: String) throws(ActionError) -> Bool? {
    guard let member = self[name] else { return nil }
    guard let flag = member.boolValue else { throw .invalidParameter(name, "expected true or false") }
    return flag
  }

  public func int(_ name: String) throws(ActionError) -> Int? {
    guard let member = self[name] else { return nil }
    if let number = member.intValue { return number }
    if let text = member.stringValue, let number = Int(text) { return number }
    throw .invalidParameter(name, "expected an integer, found \(member.typeName)")
  }

  /// A duration of at most `maximum`; longer ones and non-durations are errors.
  public func duration(
    _ name: String, maximum: Duration = InputLimits.longestDuration
  ) throws(ActionError) -> Duration? {
    guard let member = self[name] else { return nil }
    return try Self.duration(member, for: name, maximum: maximum)
  }

  /// `value` read as a duration of at most `maximum`, for the parameter `name`.
  public static func duration(
    _ value: Value, for name: String, maximum: Duration = InputLimits.longestDuration
  ) throws(ActionError) -> Duration {
    switch DurationText.read(value, maximum: maximum) {
    case .duration(let duration): return duration
    case .tooLong: throw .durationTooLong(name, maximum: maximum)
    case .invalid: throw .invalidParameter(name, "expected a duration such as 2s, 500ms or 5m")
    }
  }

  public func object(_ name: String) throws(ActionError) -> [String: Value]? {
    guard let member = self[name] else { return nil }
    guard let members = member.objectValue else {
      throw .invalidParameter(name, "expected a mapping, found \(member.typeName)")
    }
    return members
  }

  /// A mapping of names to scalar values as strings (headers, query, form fields); secrets are
  /// revealed here because they are about to be sent.
  public func stringMap(_ name: String) throws(ActionError) -> [(String, String)] {
    guard let members = try object(name) else { return [] }
    var pairs: [(String, String)] = []
    for key in members.keys.sorted() {
      guard let member = members[key], !member.isNull else { continue }
      switch member.unwrapped {
      case .array(let items):
        for item in items { pairs.append((key, item.display(revealSecrets: true))) }
      case .object:
        throw .invalidParameter("\(name).\(key)", "expected a scalar value, found \(member.typeName)")
      default: pairs.append((key, member.display(revealSecrets: true)))
      }
    }
    return pairs
  }
}
