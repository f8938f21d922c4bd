import Testing

@testable import AuthFlowHTTP

/// `URLParts.split` and `scheme(of:)` read UTF-8 bytes; these check them against the character
/// reading they replaced, with the delimiters found as Unicode scalars (a combining mark after `:`,
/// `?` or `#` made one character with it, hiding the delimiter; RFC 3986 delimiters are code points).
@Suite struct URLPartsTests {
  /// The character-level scheme test, as it was.
  static func characterScheme(of url: String) -> String? {
    guard let colon = url.unicodeScalars.firstIndex(of: ":") else { return nil }
    let scheme = url[..<colon]
    guard let first = scheme.first, first.isLetter,
      scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
    else { return nil }
    return scheme.lowercased()
  }

  static let urls = [
    "", ":", "http://x", "HTTPS://Example.com/a?b#c", "com.example.app://cb", "a+b-c.d:rest", "1http://x",
    "-x:y", "mailto:a@b", "ht tp://x", "é://x", "xé1://y", "//x/y", "/a?b?c#d#e", "?q", "#f", "a#b?c",
    "https://h/é?ü=😀#ñ", "e\u{301}x:y", "a:\u{301}b", "x?\u{301}q#\u{301}f",
  ]

  @Test(arguments: urls) func schemeOfAnyTextIsAsBefore(_ url: String) {
    #expect(URLParts.scheme(of: url) == Self.characterScheme(of: url))
  }

  @Test(arguments: urls) func splitCutsAtTheFirstHashThenTheFirstQuestionMark(_ url: String) {
    let (base, query, fragment) = URLParts.split(url)
    var rest = Substring(url)
    var expectedFragment: Substring?
    if let hash = rest.unicodeScalars.firstIndex(of: "#") {
      expectedFragment = rest[rest.unicodeScalars.index(after: hash)...]
      rest = rest[..<hash]
    }
    var expectedQuery: Substring?
    if let mark = rest.unicodeScalars.firstIndex(of: "?") {
      expectedQuery = rest[rest.unicodeScalars.index(after: mark)...]
      rest = rest[..<mark]
    }
    #expect(base == rest)
    #expect(query == expectedQuery)
    #expect(fragment == expectedFragment)
  }

  @Test func randomTextsAgree() {
    let alphabet: [Character] = ["a", "Z", "1", ":", "+", "-", ".", "é", "?", "#", "/", " ", "\u{301}"]
    for _ in 0..<3_000 {
      let text = String((0..<Int.random(in: 0...10)).map { _ in alphabet.randomElement()! })
      #expect(URLParts.scheme(of: text) == Self.characterScheme(of: text), "\(text)")
    }
  }
}
