/// A capability an action needs only for some of its parameter values (`token` with
/// `body.grant_type: client_credentials` needs `client_credentials`), declared in the action's
/// ``ActionTraits/capabilityUses``. `docs/capabilities.md` lists them with the actions that always
/// need a capability, so the page says which flows need each one.
public struct CapabilityUse: Sendable, Hashable {
  /// When the parameter needs the capability.
  public enum Condition: Sendable, Hashable {
    /// The parameter has one of these values.
    case oneOf([String])
    /// The step gives the parameter (any value).
    case given
    /// The step leaves the parameter out.
    case absent
    /// A value of that kind, described ("a password holding the user's email").
    case described(String)
  }

  /// The capability's name (``CapabilityVocabulary``).
  public var capability: String
  /// The parameter: its name, or a path into a mapping parameter (`body.grant_type`).
  public var parameter: String
  public var condition: Condition

  /// `capability` is needed when `parameter` (a path: `body.grant_type`) meets `condition`.
  public init(_ capability: String, when parameter: String, _ condition: Condition) {
    self.capability = capability
    self.parameter = parameter
    self.condition = condition
  }

  /// `capability` is needed when `parameter` meets `condition`.
  public init(_ capability: String, when parameter: some ParameterDeclaration, _ condition: Condition) {
    self.init(capability, when: parameter.signature.name, condition)
  }

  /// The parameter's name, the first segment of its path.
  public var parameterName: String {
    String(parameter.split(separator: ".").first ?? Substring(parameter))
  }

  /// How the docs say it: "`body.grant_type: client_credentials`", "without `token`".
  public var summary: String {
    switch condition {
    case .oneOf(let values): return values.map { "`\(parameter): \($0)`" }.joined(separator: " or ")
    case .given: return "with `\(parameter)`"
    case .absent: return "without `\(parameter)`"
    case .described(let text): return "`\(parameter)`: \(text)"
    }
  }
}
