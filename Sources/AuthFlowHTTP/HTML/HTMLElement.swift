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
