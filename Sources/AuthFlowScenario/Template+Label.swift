import AuthFlowCore

extension Template {
  /// A short text for the template, as instance names and graphs show it: literals as written,
  /// expressions as `${{…}}`, lists and objects in flow style.
  public var label: String {
    switch self {
    case .literal(let value, _): return value.display()
    case .expression: return "${{…}}"
    case .array(let items, _): return "[" + items.map(\.label).joined(separator: ", ") + "]"
    case .object(let members, _):
      return "{" + members.map { "\($0.key.value): \($0.value.label)" }.joined(separator: ", ") + "}"
    }
  }
}
