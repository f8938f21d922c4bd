public import AuthFlowCore
import Foundation

/// The secrets a response issues, recognised as values where they are learned: one mechanism,
/// used both by the runtime (which tags step results and registers what a response issued) and
/// by `--trace` (which must know them before it prints the exchange that carried them).
///
/// A response issues:
/// - JSON members named as secrets (``SecretFieldNames``: tokens, codes, tickets, links,
///   session ids; `code` in an error object is an error code and is not one), and every JWT;
/// - the secret parameters of every URL it carries: the `Location` header, URLs inside JSON
///   strings and HTML or text bodies (`…/lo/reset?ticket=…`, `…callback?code=…&amp;state=…`,
///   `…\u0026state=…` in a script), an HTML page read as a browser reads it (links, form
///   actions, attributes, text, entities decoded), and hidden form fields
///   (`<input name="code" value="…">`);
/// - one-time codes inside message text (`Your code is 123456`);
/// - the values of the cookies it sets.
public enum SecretExtraction {
  /// Every secret text `response` issues (possibly with repeats).
  public static func secrets(in response: HTTPResponse) -> [String] {
    read(response).secrets
  }

  /// What `response` issues, and the page it was read as when its HTML was parsed to find out
  /// (a body that is neither JSON nor a form, looks like HTML, and is at most
  /// ``largestParsedPage``): ``SecretLearningTransport`` keeps that page on the response, so a
  /// page is parsed once.
  static func read(_ response: HTTPResponse) -> (secrets: [String], page: HTMLDocument?) {
    var found: [String] = []
    if let location = response.headers["Location"] { found += SensitiveData.sensitiveValues(inURL: location) }
    for field in response.headers where field.name.caseInsensitiveEquals("Set-Cookie") {
      found += cookieValue(field.value)
    }
    guard !response.body.isEmpty, let text = String(validating: response.body, as: UTF8.self) else {
      return (found, nil)
    }
    if let json = response.jsonValue {
      found += secrets(inJSON: json)
      return (found, nil)
    }
    if MediaType.isForm(response.headers["Content-Type"]) {
      found += parameterValues(in: text)
      return (found, nil)
    }
    found += secrets(inText: text, mayHoldCodes: response.mediaType?.hasPrefix("text/plain") == true)
    let looksLikeHTML = response.mediaType?.contains("html") == true || text.contains("<")
    guard looksLikeHTML, response.body.count <= Self.largestParsedPage else { return (found, nil) }
    let page = response.page ?? HTMLDocument.parse(response.body, url: response.url)
    found += secrets(inHTML: page)
    return (found, page)
  }

  /// Pages up to this size are also parsed as HTML; a larger body is scanned as text only, so
  /// learning what a response issued stays cheap whatever a provider sends.
  static let largestParsedPage = 2 * 1024 * 1024

  /// The secrets of a page read as a browser reads it (libxml2, every entity decoded): the
  /// secret parameters of its links, form actions, `content` and `data-*` URLs and visible text,
  /// and the values of form fields with secret names.
  public static func secrets(inHTML document: HTMLDocument) -> [String] {
    var found: [String] = []
    for link in document.links { found += SensitiveData.sensitiveValues(inURL: link.url) }
    for form in document.forms {
      found += SensitiveData.sensitiveValues(inURL: form.action)
      for field in form.fields where !field.value.isEmpty && SecretFieldNames.all.contains(field.name.lowercased()) {
        found.append(field.value)
      }
    }
    for element in document.elements {
      for value in element.attributes.values where occurs("=", in: value) { found += parameterValues(in: value) }
    }
    if occurs("=", in: document.text) { found += parameterValues(in: document.text) }
    return found
  }

  /// Every secret inside a JSON value (a response body, a step result before tagging).
  public static func secrets(inJSON value: Value) -> [String] {
    var found: [String] = []
    collect(value, secret: false, key: nil, into: &found)
    return found
  }

  /// The secret parameters of the URLs and hidden form fields in free text, and, when
  /// `mayHoldCodes` (a message body), the one-time codes it announces.
  public static func secrets(inText text: String, mayHoldCodes: Bool = false) -> [String] {
    var found: [String] = []
    if occurs("=", in: text) {
      found += parameterValues(in: text)
      found += hiddenFieldValues(in: text)
    }
    if mayHoldCodes { found += announcedCodes(in: text) }
    return found
  }

  /// Registers every secret `response` issues in `registry`.
  public static func register(_ response: HTTPResponse, in registry: SecretRegistry) {
    for secret in secrets(in: response) { registry.register(secret) }
  }

  /// Registers every secret the response of `exchange` issued, so that its trace, printed next,
  /// is scrubbed of them.
  public static func register(_ exchange: HTTPExchange, in registry: SecretRegistry) {
    if case .success(let response) = exchange.outcome { register(response, in: registry) }
  }

  /// Members whose names mark text that may announce a code (an outbox message's `body`).
  static let messageMembers: Set<String> = ["body", "text", "html", "subject"]

  private static func collect(_ value: Value, secret: Bool, key: String?, into found: inout [String]) {
    switch value {
    case .object(let members):
      let names = members.keys
      for (name, member) in members {
        collect(
          member, secret: secret || SecretFieldNames.isSecretMember(name, siblings: names), key: name, into: &found)
      }
    case .array(let items):
      for item in items { collect(item, secret: secret, key: key, into: &found) }
    case .string(let text):
      if secret {
        found.append(text)
        found.append(PercentEncoding.decode(text, plusAsSpace: false))
      } else if text.utf8.count > 20, text.utf8.first == UInt8(ascii: "e"), JWTValue(raw: text) != nil {
        found.append(text)
      }
      found += secrets(inText: text, mayHoldCodes: key.map { messageMembers.contains($0.lowercased()) } ?? false)
    case .int(let number) where secret:
      found.append(String(number))
    case .secret(let inner):
      collect(inner, secret: true, key: key, into: &found)
    case .jwt(let token):
      found.append(token.raw)
    default:
      break
    }
  }

  /// The values of secret `name=value` pairs anywhere in `text`: URL queries and fragments, form
  /// bodies, links in HTML (`&amp;` read as `&`), raw and percent-decoded.
  static func parameterValues(in text: String) -> [String] {
    let unescaped = unescapingSeparators(text)
    var found: [String] = []
    // Split as UTF-8 bytes: every delimiter is ASCII, and an ASCII byte never occurs inside a
    // multi-byte sequence, so each piece is whole characters (and `\r\n` is two delimiters).
    for segment in unescaped.utf8.split(whereSeparator: isParameterDelimiter) {
      guard let equals = segment.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let value = Substring(segment[segment.index(after: equals)...])
      guard !value.isEmpty else { continue }
      let name = PercentEncoding.decode(Substring(segment[..<equals]), plusAsSpace: true)
      guard SecretFieldNames.all.contains(name.lowercased()) else { continue }
      found.append(String(value))
      found.append(PercentEncoding.decode(value, plusAsSpace: false))
    }
    return found
  }

  /// The bytes that end a `name=value` pair in free text: `? & # ; , ( )`, whitespace, quotes
  /// and angle brackets.
  private static func isParameterDelimiter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\n"),
      UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
      UInt8(ascii: ">"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "("), UInt8(ascii: ")"):
      true
    default: false
    }
  }

  /// The ways HTML and script text escape `&` and `=` between a URL's parameters
  /// (`…?code=…&amp;state=…`, `…\u0026state=…` in a script or Go's JSON, `&#38;`, `&#x26;`).
  static let escapedSeparators: [(String, String)] = [
    ("&amp;", "&"), ("&#38;", "&"), ("&#x26;", "&"), ("&#X26;", "&"), ("\\u0026", "&"), ("\\x26", "&"),
    ("&#61;", "="), ("&#x3d;", "="), ("&#x3D;", "="), ("&equals;", "="), ("\\u003d", "="), ("\\u003D", "="),
  ]

  /// `text` with escaped parameter separators read as the separators they stand for.
  static func unescapingSeparators(_ text: String) -> String {
    guard occurs("&#", in: text) || occurs("&amp;", in: text) || occurs("&equals;", in: text) || occurs("\\", in: text)
    else { return text }
    var unescaped = text
    for (escaped, separator) in escapedSeparators where occurs(escaped, in: unescaped) {
      unescaped = unescaped.replacingOccurrences(of: escaped, with: separator)
    }
    return unescaped
  }

  /// Whether the bytes of `pattern` occur in `text` (a plain byte search: no Unicode
  /// normalisation, which an ASCII pattern does not need).
  static func occurs(_ pattern: String, in text: String) -> Bool {
    let needle = Array(pattern.utf8)
    var text = text
    return text.withUTF8 { end(of: needle, in: $0) } != nil
  }

  /// The offset just past the first occurrence of `needle` in `haystack`; nil when it does not occur.
  private static func end(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let first = needle.first else { return 0 }
    guard haystack.count >= needle.count else { return nil }
    var index = 0
    let last = haystack.count - needle.count
    while index <= last {
      if haystack[index] == first {
        var matched = 1
        while matched < needle.count, haystack[index + matched] == needle[matched] { matched += 1 }
        if matched == needle.count { return index + matched }
      }
      index += 1
    }
    return nil
  }

  /// The values of `<input … name="code" … value="…">` fields whose names are secret (a
  /// `form_post` response, a page carrying a state or ticket).
  static func hiddenFieldValues(in text: String) -> [String] {
    guard occurs("<input", in: text) else { return [] }
    var found: [String] = []
    // Split as UTF-8 bytes (`<` is ASCII: each piece is whole characters).
    for piece in text.utf8.split(separator: UInt8(ascii: "<")).dropFirst() {
      let tag = Substring(piece)
      guard tag.hasPrefix("input") else { continue }
      let body = tag.prefix { $0 != ">" }
      guard let name = attribute("name", in: body), SecretFieldNames.all.contains(name.lowercased()),
        let value = attribute("value", in: body), !value.isEmpty
      else { continue }
      found.append(value)
      if occurs("&amp;", in: value) { found.append(value.replacingOccurrences(of: "&amp;", with: "&")) }
    }
    return found
  }

  private static func attribute(_ name: String, in tag: Substring) -> String? {
    for quote in [UInt8(ascii: "\""), UInt8(ascii: "'")] {
      let needle = Array(" \(name)=".utf8) + [quote]
      var bytes = tag
      // An ASCII needle ends on a character boundary.
      guard let offset = bytes.withUTF8({ end(of: needle, in: $0) }) else { continue }
      let rest = tag.utf8[tag.utf8.index(tag.utf8.startIndex, offsetBy: offset)...]
      return String(Substring(rest.prefix { $0 != quote }))
    }
    return nil
  }

  /// Runs of 4 to 10 digits announced as a code in message text (`Your code is 123456`,
  /// `Verification code: 123456`).
  static func announcedCodes(in text: String) -> [String] {
    let lowered = text.lowercased()
    guard ["code", "otp", "pin"].contains(where: lowered.contains) else { return [] }
    var found: [String] = []
    let characters = Array(text)
    var index = 0
    while index < characters.count {
      guard characters[index].isASCII, characters[index].isNumber else {
        index += 1
        continue
      }
      var end = index
      while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
      let startsWord = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
      let endsWord = end == characters.count || !(characters[end].isLetter || characters[end].isNumber)
      if (4...10).contains(end - index), startsWord, endsWord {
        let before = String(characters[max(0, index - 40)..<index]).lowercased()
        if before.contains("code") || before.contains("otp") || before.contains("pin") {
          found.append(String(characters[index..<end]))
        }
      }
      index = end
    }
    return found
  }

  private static func cookieValue(_ header: String) -> [String] {
    let pair = header.prefix { $0 != ";" }
    guard let equals = pair.firstIndex(of: "=") else { return [] }
    let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    return value.utf8.count >= 8 ? [value] : []
  }
}

/// A transport that registers every secret a response issues (``SecretExtraction``) before
/// handing the response on: whatever a step or action then does with it, each value is already
/// scrubbed from every output.
public struct SecretLearningTransport: HTTPTransport {
  public let base: any HTTPTransport
  public let secrets: SecretRegistry

  public init(wrapping base: any HTTPTransport, secrets: SecretRegistry) {
    self.base = base
    self.secrets = secrets
  }

  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    var response = try await base.send(request)
    // A page is read once, here: the secrets it issues are learned from it, and the browser that
    // asked for it gets it with the response (``HTTPResponse/page``).
    let (issued, page) = SecretExtraction.read(response)
    for secret in issued { secrets.register(secret) }
    if response.page == nil { response.page = page }
    return response
  }
}
