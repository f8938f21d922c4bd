/// One parameter of an action: its name, type, whether it must be given, and what it does.
public struct ParameterSignature: Sendable, Hashable {
  public var name: String
  public var type: ParameterType
  public var required: Bool
  /// One line for error messages, completions and the JSON Schema's `description`.
  public var summary: String

  public init(_ name: String, _ type: ParameterType, required: Bool = false, summary: String = "") {
    self.name = name
    self.type = type
    self.required = required
    self.summary = summary
  }
}
