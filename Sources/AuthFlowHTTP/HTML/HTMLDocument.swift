import CLibXML2
import Foundation

/// A parsed page: what a scenario step needs from Universal Login and OpenID Provider pages.
///
/// Parsed with libxml2's forgiving HTML parser (unclosed tags, entities, uppercase tags all fine);
/// the libxml2 tree is freed before `parse` returns, so the document is a plain value.
public struct HTMLDocument: Sendable, Hashable {
  /// The URL the page was fetched from.
  public var url: String
  /// What relative links resolve against: `<base href>` when present, else `url`.
  public var baseURL: String
  public var title: String?
  public var forms: [HTMLForm]
  public var links: [HTMLLink]
  /// The visible text (no scripts, styles, head, or `hidden` elements), whitespace collapsed.
  public var text: String
  /// Elements with an id, class or role, and headings, paragraphs, labels and list items.
  public var elements: [HTMLElement]

  public init(
    url: String, baseURL: String, title: String?, forms: [HTMLForm], links: [HTMLLink], text: String,
    elements: [HTMLElement]
  ) {
    self.url = url
    self.baseURL = baseURL
    self.title = title
    self.forms = forms
    self.links = links
    self.text = text
    self.elements = elements
  }

  /// Parses HTML bytes (UTF-8) fetched from `url`.
  public static func parse(_ bytes: [UInt8], url: String) -> HTMLDocument {
    _ = parserReady
    let options = Int32(
      HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOBLANKS.rawValue)
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.flatMap { base in
        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { characters in
          htmlReadMemory(characters, Int32(clamping: buffer.count), url, "UTF-8", options)
        }
      }
    }
    guard let document else {
      return HTMLDocument(url: url, baseURL: url, title: nil, forms: [], links: [], text: "", elements: [])
    }
    defer { xmlFreeDoc(document) }
    return HTMLTreeWalker.document(from: document.pointee.children, url: url)
  }

  /// An HTML response's body as a page: the page already read on the way
  /// (``HTTPResponse/page``), else the body parsed now.
  public static func parse(_ response: HTTPResponse) -> HTMLDocument {
    response.page ?? parse(response.body, url: response.url)
  }

  /// libxml2 sets up its globals once, before the first parse on any thread.
  private static let parserReady: Void = xmlInitParser()

  /// The start of the visible text, cut at a word boundary, for messages.
  public func snippet(maxLength: Int = 200) -> String {
    guard text.count > maxLength else { return text }
    let cut = text.prefix(maxLength)
    let word = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
    return word + "…"
  }

  /// The kept elements matching a selector (`#id`, `.class`, `[role=alert]`, `tag.class`…), in
  /// document order; none when the selector is outside the supported subset.
  public func elements(matching selector: String) -> [HTMLElement] {
    guard let parsed = HTMLSelector(selector) else { return [] }
    return elements(matching: parsed)
  }

  public func elements(matching selector: HTMLSelector) -> [HTMLElement] {
    elements.filter(selector.matches)
  }

  /// The element with that id.
  public func element(id: String) -> HTMLElement? {
    elements.first { $0.id == id }
  }

  /// Where pages put error messages: Universal Login, common CSS frameworks, ARIA alerts, and
  /// Django's forms (`<ul class="errorlist">`: django-allauth's "The email address and/or password
  /// you specified are not correct.").
  public static let errorSelectors = [
    "#error-message", "#prompt-alert", "[role=alert]", ".error", ".error-message", ".alert-danger",
    ".ulp-input-error-message", ".ulp-error-info", "[data-error-code]", "#error-element-password", ".errorlist",
  ]

  /// ``errorSelectors``, parsed once.
  private static let parsedErrorSelectors = errorSelectors.compactMap(HTMLSelector.init)

  /// The texts of the page's error-message elements, in document order, without repeats or blanks.
  /// A loading indicator in an alert region (a single-page app's "Loading..." spinner before its
  /// script runs) is not an error message (``HTMLElement/isLoadingIndicator``).
  public var errorMessages: [String] {
    var seen = Set<String>()
    return elements.filter { element in
      Self.parsedErrorSelectors.contains { $0.matches(element) } && !element.isLoadingIndicator
    }
    .map(\.text)
    .filter { !$0.isEmpty && seen.insert($0).inserted }
  }

  /// A page with no form whose first heading has the word "error" — how providers without an
  /// error-page convention show an authorization error (django-oauth-toolkit: `<h2>Error:
  /// invalid_request</h2><p>Mismatching redirect URI.</p>`; django-oidc-provider: `<h1>Redirect URI
  /// Error</h1><p>The request fails …</p>`): the OAuth error code a heading names after "Error:"
  /// (when it looks like one), and the message (the first paragraph after the heading, else the
  /// heading). Nil on a page with a form, or without such a heading.
  public var errorHeading: (code: String?, message: String)? {
    guard forms.isEmpty,
      let index = elements.firstIndex(where: { ["h1", "h2", "h3"].contains($0.tag.lowercased()) })
    else { return nil }
    let heading = elements[index].text.trimmingCharacters(in: .whitespacesAndNewlines)
    let lowered = heading.lowercased()
    let words = lowered.split { !("a"..."z").contains($0.unicodeScalars.first ?? " ") }
    guard words.contains("error") else { return nil }
    let rest =
      lowered.hasPrefix("error")
      ? heading.dropFirst("error".count).drop { $0 == ":" || $0 == "-" || $0 == " " } : ""
    let isCode =
      !rest.isEmpty && rest.count <= 64
      && rest.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || "_.0123456789".unicodeScalars.contains($0) }
    let paragraph = elements[(index + 1)...].first { $0.tag.lowercased() == "p" && !$0.text.isEmpty }
    let message = paragraph?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? heading
    return (isCode ? String(rest) : nil, message)
  }

  /// The forms a selector matches, in document order.
  public func forms(_ selector: HTMLFormSelector) -> [HTMLForm] {
    forms.enumerated().filter { selector.matches($0.element, at: $0.offset) }.map(\.element)
  }

  /// The first form a selector matches; throws, listing the page's forms, when none does.
  public func form(_ selector: HTMLFormSelector) throws(FormError) -> HTMLForm {
    guard let form = forms(selector).first else {
      throw .noMatchingForm(selector, forms: forms, page: url)
    }
    return form
  }
}
