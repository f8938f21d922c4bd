import Foundation
import Testing

@testable import AuthFlowMockTenant

@Suite("Form encoding over bytes")
struct FormEncodingTests {
  /// What the mock decoded with before: `+` as a space, then Foundation's percent-decoding, the
  /// spaced text when that fails. Nil where Foundation is inconsistent: it refuses escapes that
  /// make invalid UTF-8 (`%FF`, `%E2%82`, `%C3%28`) but replaces a lone continuation byte (`%A9`)
  /// with U+FFFD; the mock refuses both (``onlyUTF8IsDecoded()``).
  static func foundationUnescape(_ text: String) -> String? {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    let decoded = spaced.removingPercentEncoding ?? spaced
    return decoded.contains("\u{FFFD}") && !text.contains("\u{FFFD}") ? nil : decoded
  }

  static let samples = [
    "", "plain", "two+words", "a%20b", "%41%42%43", "%e2%82%AC", "%E2%82", "%", "%4", "%zz", "100%", "%+a",
    "a+%2B+b", "%00", "caf%C3%A9", "café", "%FF%FE", "x%2", "%%41", "+%41+", "%c3%28", "%F0%9F%98%80",
    "redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback", "%2", "%%", "a%2Bb%20c+d",
  ]

  @Test("Unescaping matches Foundation's removingPercentEncoding on edge cases")
  func unescapeMatchesFoundation() {
    for sample in Self.samples {
      guard let expected = Self.foundationUnescape(sample) else { continue }
      #expect(FormEncoding.unescape(sample) == expected, "\(sample)")
    }
  }

  @Test("Unescaping matches Foundation on random mixes of escapes, pluses and UTF-8")
  func unescapeMatchesFoundationRandomly() {
    let pieces = ["%", "+", "a", "Z", "0", "%2", "%41", "%C3", "%A9", "%e2%82%ac", "é", "€", "%zz", "%FF", " ", "="]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...8, using: &generator)
      let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
      guard let expected = Self.foundationUnescape(text) else { continue }
      #expect(FormEncoding.unescape(text) == expected, "\(text)")
    }
  }

  @Test("Escapes that do not make UTF-8 leave the text as it is, pluses as spaces")
  func onlyUTF8IsDecoded() {
    #expect(FormEncoding.unescape("%A9") == "%A9")
    #expect(FormEncoding.unescape("a+%FF+b") == "a %FF b")
    #expect(FormEncoding.unescape("%E2%82") == "%E2%82")
    #expect(FormEncoding.unescape("%C3%A9+%41") == "é A")
  }

  @Test("Decoding: first of repeated keys wins, bare flags are empty, empty keys are dropped")
  func decodesPairs() {
    let decoded = FormEncoding.decode("a=1&b=two+words&a=2&flag&=x&&c=%3D%26&d=")
    #expect(decoded == ["a": "1", "b": "two words", "flag": "", "c": "=&", "d": ""])
  }

  @Test("Decoding tells every key given a value twice, once each; a key without a value counts as omitted")
  func reportsRepeats() {
    #expect(FormEncoding.decodeChecked("a=1&b=2&a=2&b=3").repeated == ["a", "b"])
    #expect(FormEncoding.decodeChecked("b=1&a=1&a=2&b=2&a=3").repeated == ["a", "b"])
    #expect(FormEncoding.decodeChecked("a=1&a=1").repeated == ["a"])
    #expect(FormEncoding.decodeChecked("a=1&b=2").repeated == [])
    let emptyFirst = FormEncoding.decodeChecked("a=&a=x&b=y&b=&flag&flag")
    #expect(emptyFirst.repeated == [])
    #expect(emptyFirst.values == ["a": "x", "b": "y", "flag": ""])
  }

  @Test("Escaping keeps the unreserved characters and percent-encodes the rest as UTF-8")
  func escapes() {
    let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    for text in ["abc-._~XYZ09", "a b+c&d=e/f?g#h", "café €", "%41", ""] {
      #expect(FormEncoding.escape(text) == text.addingPercentEncoding(withAllowedCharacters: allowed), "\(text)")
    }
    #expect(FormEncoding.decode(FormEncoding.encode([("k y", "v&=é")])) == ["k y": "v&=é"])
  }
}
