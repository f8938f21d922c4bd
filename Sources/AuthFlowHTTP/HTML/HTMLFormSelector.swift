import AuthFlowCore

/// Which form of a page to use.
public enum HTMLFormSelector: Sendable, Hashable, CustomStringConvertible {
  /// The first form with fields of all these names.
  case containingFields([String])
  /// The first form with a field of this type (`password`).
  case containingFieldOfType(String)
  /// The form with this `id`.
  case id(String)
  /// The first form whose resolved action contains this text.
  case actionContaining(String)
  /// The form at this position (0-based).
  case index(Int)

  /// True when `form` (at `position` on the page) is the one meant.
  public func matches(_ form: HTMLForm, at position: Int) -> Bool {
    switch self {
    case .containingFields(let names): return names.allSatisfy { form.field(named: $0) != nil }
    case .containingFieldOfType(let type): return form.hasField(ofType: type)
    case .id(let id): return form.id == id
    case .actionContaining(let text): return form.action.contains(text)
    case .index(let index): return position == index
    }
  }

  public var description: String {
    switch self {
    case .containingFields(let names): return "with fields [\(names.joined(separator: ", "))]"
    case .containingFieldOfType(let type): return "with \(Plural.indefinite(type)) field"
    case .id(let id): return "#\(id)"
    case .actionContaining(let text): return "with an action containing '\(text)'"
    case .index(let index): return "number \(index + 1)"
    }
  }
}
