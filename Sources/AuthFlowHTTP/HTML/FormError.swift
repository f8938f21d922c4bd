import AuthFlowCore

/// A form could not be found, filled or submitted as asked. The message lists what the page has.
public struct FormError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: String, Sendable, Hashable {
    case noMatchingForm
    case unknownField
    case unknownOption
    case unknownSubmitter
  }

  public var kind: Kind
  public var message: String

  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}

extension FormError {
  static func noMatchingForm(_ selector: HTMLFormSelector, forms: [HTMLForm], page: String) -> Self {
    let summary =
      forms.isEmpty
      ? "the page has no forms"
      : "the page has " + forms.map { $0.summary }.joined(separator: "; ")
    return .init(kind: .noMatchingForm, message: "no form \(selector) on \(page): \(summary)")
  }

  static func unknownField(_ name: String, available: [String]) -> Self {
    var message = "the form has no field '\(name)'"
    if let hint = Suggestion.hint(for: name, in: available) { message += "; \(hint)" }
    message += available.isEmpty ? " (it has no named fields)" : " (fields: \(available.joined(separator: ", ")))"
    return .init(kind: .unknownField, message: message)
  }

  static func unknownOption(field: String, value: String, options: [String]) -> Self {
    .init(
      kind: .unknownOption,
      message: "field '\(field)' has no option '\(value)' (options: \(options.joined(separator: ", ")))")
  }

  static func unknownSubmitter(_ submitter: String, buttons: [String]) -> Self {
    let listed = buttons.isEmpty ? "it has no submit buttons" : "buttons: \(buttons.joined(separator: ", "))"
    return .init(kind: .unknownSubmitter, message: "the form has no submit button '\(submitter)' (\(listed))")
  }
}
