import Foundation
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

  /// URLParts as `URLComponents` reads it: what the plain parser must agree with.
  static func components(_ url: String) -> (scheme: String, host: String, port: Int?, path: String)? {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
      let host = components.host, !host.isEmpty
    else { return nil }
    return (
      scheme, host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")), components.port,
      components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    )
  }

  /// The pacer's bucket as `URLComponents` reads it.
  static func foundationBucket(_ url: String) -> RateLimitPacer.BucketKey {
    let components = URLComponents(string: url)
    return RateLimitPacer.BucketKey(
      host: (components?.host ?? "") + (components?.port.map { ":\($0)" } ?? ""),
      path: components.map { $0.path.isEmpty ? "/" : $0.path } ?? url)
  }

  /// Every URL of a grammar of valid and invalid pieces: wherever the plain parser reads one,
  /// `URLComponents` reads the same parts.
  @Test func thePlainParserReadsWhatURLComponentsReads() {
    let schemes = ["http", "HTTPS", "com.example.app", "a+b-c", "1x", "", "é"]
    let separators = ["://", ":/", ":", "//"]
    let hosts = ["127.0.0.1", "Example.COM", "a-b.c", "", "x_y", "[::1]", "user@host", "h%41", "-x", "a..b"]
    let ports = ["", ":80", ":0080", ":", ":65535", ":65536", ":123456", ":x", ":0"]
    let paths = ["", "/", "/u/login", "/a%2Fb", "/a%zz", "/a%4", "/é", "/a b", "/a;b=c", "/~x/(y)*", "//x", "/a/../b"]
    let queries = ["", "?", "?state=abc&x=1", "?a=%41", "?a=b?c", "?a=[1]", "?q=a|b"]
    let fragments = ["", "#", "#f", "#a#b", "#x/y?z"]
    var plain = 0
    var checked = 0
    for scheme in schemes {
      for separator in separators {
        for host in hosts {
          for port in ports {
            for path in paths {
              for (query, fragment) in zip(queries, fragments.shuffled() + fragments) {
                let url = scheme + separator + host + port + path + query + fragment
                checked += 1
                guard let fast = PlainURL(url) else { continue }
                plain += 1
                let slow = Self.components(url)
                #expect(slow != nil, "\(url): plain parses, URLComponents does not")
                guard let slow else { continue }
                #expect(fast.scheme == slow.scheme, "\(url)")
                #expect(fast.host == slow.host, "\(url)")
                #expect(fast.port == slow.port, "\(url)")
                #expect((fast.path.isEmpty ? "/" : fast.path) == slow.path, "\(url)")
                #expect(
                  RateLimitPacer.BucketKey(url: url) == Self.foundationBucket(url), "\(url): the pacer's bucket")
              }
            }
          }
        }
      }
    }
    #expect(checked > 50_000)
    #expect(plain > 2_000, "the grammar reaches the plain shape")
  }

  @Test func theURLsOfAFlowTakeThePlainPath() throws {
    let url = "http://127.0.0.1:41234/u/login?state=hKFo2SB3&ui_locales=en#x"
    let plain = try #require(PlainURL(url))
    #expect(plain == PlainURL(url))
    #expect(plain.scheme == "http" && plain.host == "127.0.0.1" && plain.port == 41234 && plain.path == "/u/login")
    #expect(plain.origin == "http://127.0.0.1:41234")
    let parts = try #require(URLParts(url))
    #expect(parts.scheme == "http" && parts.host == "127.0.0.1" && parts.port == 41234 && parts.path == "/u/login")
    #expect(PlainURL("https://[::1]/") == nil, "IPv6 is left to URLComponents")
    #expect(URLParts("https://[::1]:8443/a")?.host == "::1")
  }

  /// The resolution of RFC 3986 §5 as Foundation does it: what the plain path must agree with.
  static func foundationResolve(_ reference: String, against base: String) -> String? {
    guard let baseURL = URL(string: base), let resolved = URL(string: reference, relativeTo: baseURL) else {
      return nil
    }
    return resolved.absoluteString
  }

  @Test func aPlainAbsolutePathResolvesAsFoundationResolvesIt() {
    let bases = [
      "http://127.0.0.1:4000/authorize?client_id=x", "https://tenant.example.com/u/login", "http://h/", "http://h",
      "https://Tenant.Example.com/a", "HTTP://h/a", "http://h:80/a/b/c?q#f",
    ]
    let references = [
      "/", "/u/login?state=abc", "/a/b", "/a/./b", "/a/../b", "/.", "/..", "/a/.", "/a/..", "/a/.b", "/a/..b",
      "/.a/", "//evil.example/x", "/a%2E%2E/b", "/%2e%2e/x", "/a b", "/é", "/a?b#c", "/a#b#c", "/a?x=/../y",
      "/a;p=1/b", "/~u/(x)", "/a%zz", " /a", "/a ",
    ]
    var plain = 0
    for base in bases {
      for reference in references {
        guard let fast = PlainURL(base)?.resolving(absolutePath: reference) else { continue }
        plain += 1
        #expect(fast == Self.foundationResolve(reference, against: base), "\(reference) against \(base)")
        #expect(fast == URLResolution.resolve(reference, against: base))
      }
    }
    #expect(plain > 40)
    #expect(PlainURL("http://h/x")?.resolving(absolutePath: "/a/../b") == nil, "dot segments are left to Foundation")
    #expect(URLResolution.resolve("/a/../b", against: "http://h/x") == "http://h/b")
  }
}
