import Foundation

/// The pieces of an absolute URL that cookies, redirects and error messages need.
struct URLParts: Sendable, Hashable {
  /// Lowercased scheme.
  var scheme: String
  /// Lowercased host, without brackets for IPv6.
  var host: String
  var port: Int?
  /// The path, `/` when empty.
  var path: String

  init?(_ url: String) {
    if let plain = PlainURL(url) {
      self.scheme = plain.scheme
      self.host = plain.host
      self.port = plain.port
      self.path = plain.path.isEmpty ? "/" : plain.path
      return
    }
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
      let host = components.host, !host.isEmpty
    else { return nil }
    self.scheme = scheme
    self.host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    self.port = components.port
    self.path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
  }

  /// True for `https`, and for loopback hosts, which browsers treat as a secure context.
  var isSecureContext: Bool {
    scheme == "https" || host == "localhost" || host == "127.0.0.1" || host == "::1"
  }

  var isHTTP: Bool { scheme == "http" || scheme == "https" }

  /// The origin, to tell cross-origin redirects apart.
  var origin: String {
    let defaultPort = scheme == "https" ? 443 : 80
    return "\(scheme)://\(host):\(port ?? defaultPort)"
  }

  /// Splits off the query and fragment of any URL text, without validating it (over its UTF-8
  /// bytes: `#` and `?` are ASCII).
  static func split(_ url: String) -> (base: Substring, query: Substring?, fragment: Substring?) {
    var rest = Substring(url)
    var fragment: Substring?
    if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
      fragment = rest[rest.utf8.index(after: hash)...]
      rest = rest[..<hash]
    }
    var query: Substring?
    if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
      query = rest[rest.utf8.index(after: mark)...]
      rest = rest[..<mark]
    }
    return (rest, query, fragment)
  }

  /// The scheme of any URL text (`com.example.app://…` included), lowercased; nil when there is none.
  static func scheme(of url: String) -> String? {
    guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    let scheme = url[..<colon]
    if scheme.utf8.allSatisfy({ $0 < 0x80 }) {
      // ASCII, as schemes are: the same test over bytes.
      guard let first = scheme.utf8.first, Self.isASCIILetter(first),
        scheme.utf8.allSatisfy({
          Self.isASCIILetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "+")
            || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        })
      else { return nil }
      return scheme.lowercased()
    }
    guard let first = scheme.first, first.isLetter,
      scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
    else { return nil }
    return scheme.lowercased()
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }
}
