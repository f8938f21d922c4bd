import Foundation

/// An element kept for lookups by selector: one with an `id`, `class` or `role`, or a heading,
/// paragraph or label — what error messages and page classification need.
public struct HTMLElement: Sendable, Hashable {
  /// Lowercased tag name.
  public var tag: String
  /// Attributes by lowercased name, entities decoded.
  public var attributes: [String: String]
  /// The element's visible text, whitespace collapsed; a slice of the document's text.
  let textSlice: Substring

  public init(tag: String, attributes: [String: String], text: String) {
    self.tag = tag
    self.attributes = attributes
    self.textSlice = Substring(text)
  }

  init(tag: String, attributes: [String: String], textSlice: Substring) {
    self.tag = tag
    self.attributes = attributes
    self.textSlice = textSlice
  }

  public var id: String? { attributes["id"] }

  /// The class names.
  public var classes: [String] {
    attributes["class"].map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
  }

  /// The visible text, whitespace collapsed.
  public var text: String { String(textSlice) }

  /// True for a busy or loading indicator: `aria-busy="true"`, `role=progressbar`, an id or class
  /// naming a spinner or loader, or text that only says it is loading ("Loading...", "Please
  /// wait…"). Single-page apps put one in their `role=alert` region until their script renders.
  public var isLoadingIndicator: Bool {
    if attributes["aria-busy"]?.lowercased() == "true" || attributes["role"] == "progressbar" { return true }
    let names = ([id ?? ""] + classes).map { $0.lowercased() }
    if names.contains(where: { name in Self.loadingNames.contains { name.contains($0) } }) { return true }
    let words = text.lowercased().trimmingCharacters(in: Self.ellipsis)
    return Self.loadingTexts.contains(words)
  }

  static let loadingNames = ["spinner", "loading", "loader", "progress"]
  static let loadingTexts: Set<String> = ["loading", "please wait", "one moment", "one moment please", "redirecting"]
  static let ellipsis = CharacterSet(charactersIn: ".…· \u{00A0}")
}

/// A link of the page.
public struct HTMLLink: Sendable, Hashable {
  /// `href` resolved against the document's base URL.
  public var url: String
  public var text: String

  public init(url: String, text: String) {
    self.url = url
    self.text = text
  }
}
