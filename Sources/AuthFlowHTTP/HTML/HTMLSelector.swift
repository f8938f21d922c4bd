import Foundation

/// A compound selector without combinators: an optional tag followed by any of `#id`, `.class`,
/// `[attr]` and `[attr=value]` (value optionally quoted) — e.g. `#error-message`, `.error`,
/// `[role=alert]`, `div.alert.alert-danger`, `p[data-error-code]`.
public struct HTMLSelector: Sendable, Hashable, CustomStringConvertible {
  enum Condition: Sendable, Hashable {
    case id(String)
    case className(String)
    case attribute(String, value: String?)
  }

  public let description: String
  let tag: String?
  let conditions: [Condition]

  /// Parses a selector; nil when it uses syntax outside the subset.
  public init?(_ text: String) {
    description = text
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    guard !rest.isEmpty, !rest.contains(" ") else { return nil }
    let tagName = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
    tag = tagName.isEmpty ? nil : tagName.lowercased()
    rest = rest.dropFirst(tagName.count)
    if rest.first == "*" { rest = rest.dropFirst() }
    var conditions: [Condition] = []
    while let first = rest.first {
      switch first {
      case "#", ".":
        rest = rest.dropFirst()
        let name = rest.prefix { $0 != "#" && $0 != "." && $0 != "[" }
        guard !name.isEmpty else { return nil }
        conditions.append(first == "#" ? .id(String(name)) : .className(String(name)))
        rest = rest.dropFirst(name.count)
      case "[":
        guard let close = rest.firstIndex(of: "]") else { return nil }
        let inside = rest[rest.index(after: rest.startIndex)..<close]
        let parts = inside.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty else { return nil }
        let value = parts.count > 1 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) : nil
        conditions.append(.attribute(name, value: value))
        rest = rest[rest.index(after: close)...]
      default:
        return nil
      }
    }
    self.conditions = conditions
    guard tag != nil || !conditions.isEmpty else { return nil }
  }

  /// True when the element satisfies the selector.
  public func matches(_ element: HTMLElement) -> Bool {
    if let tag, element.tag != tag { return false }
    return conditions.allSatisfy { condition in
      switch condition {
      case .id(let id): return element.id == id
      case .className(let name): return element.classes.contains(name)
      case .attribute(let name, let value):
        guard let actual = element.attributes[name] else { return false }
        return value.map { $0 == actual } ?? true
      }
    }
  }
}
