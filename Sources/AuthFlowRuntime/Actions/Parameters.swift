public import AuthFlowCore

/// An action's evaluated parameters. An action reads them through its declarations
/// (`try input[Self.scope]`, `try input.required(Self.token)`, ``Parameter``), typed, with
/// messages that name the parameter; there is no read by a string key.
public struct Parameters: Sendable {
  public let value: Value

  public init(_ value: Value) {
    self.value = value
  }

  /// The value the step gives `parameter`, as evaluated and not converted; nil when absent or null.
  public func raw(_ parameter: some ParameterDeclaration) -> Value? {
    self[parameter.signature.name]
  }

  /// The member named `name`, or nil when absent or null.
  subscript(name: String) -> Value? {
    guard let member = value.member(name), !member.isNull else { return nil }
    return member
  }

  /// `value` read as a duration of at most the declaration's `maximumDuration`, for `parameter`
  /// (a duration written in another form: `wait: 2s`).
  public static func duration(_ value: Value, for parameter: some ParameterDeclaration) throws(ActionError) -> Duration
  {
    try duration(value, for: parameter.signature.name, maximum: parameter.signature.maximumDuration)
  }

  /// `value` read as a duration of at most `maximum`, for the parameter `name`.
  static func duration(_ value: Value, for name: String, maximum: Duration) throws(ActionError) -> Duration {
    switch DurationText.read(value, maximum: maximum) {
    case .duration(let duration): return duration
    case .tooLong: throw .durationTooLong(name, maximum: maximum)
    case .invalid: throw .invalidParameter(name, "expected a duration such as 2s, 500ms or 5m")
    }
  }

  /// A mapping of names to scalar values as strings (headers, query, form fields); secrets are
  /// revealed here because they are about to be sent.
  func stringMap(_ name: String, _ members: [String: Value]) throws(ActionError) -> [(String, String)] {
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
