import AuthFlowCore
import Foundation
import Testing

/// The byte-level helpers of the hot paths agree with splitting at Unicode scalars. (Splitting at
/// characters differs only where a combining mark follows the separator: `.` + U+0301 is one
/// character, but still a separator byte — and never part of a base64url token or a URL's
/// delimiters, which are ASCII.)
@Suite struct ByteSplitTests {
  /// Texts with every shape a separator can take: none, leading, trailing, doubled, beside
  /// multi-byte and combining characters.
  static let texts = [
    "", ".", "..", "a", "a.b", ".a", "a.", "a..b", "é.ü.😀", "e\u{301}.x", "🇫🇷.🇩🇪", "a.b.c.d.e",
    "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "no separator at all here",
  ]

  static func scalarSplit(_ text: String) -> [String] {
    text.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).map {
      String(String.UnicodeScalarView($0))
    }
  }

  @Test(arguments: texts) func splittingAtAnASCIIByteIsSplittingAtTheScalar(_ text: String) {
    #expect(text.splitting(atASCII: UInt8(ascii: ".")).map(String.init) == Self.scalarSplit(text))
  }

  @Test func aCombiningMarkAfterTheSeparatorDoesNotHideIt() {
    #expect("a.\u{301}b".splitting(atASCII: UInt8(ascii: ".")).map(String.init) == ["a", "\u{301}b"])
  }

  @Test func splittingRandomTextsAgreesWithSplit() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [Character] = ["a", ".", "é", "😀", "\u{301}", "-", "?", "#"]
    for _ in 0..<2_000 {
      let text = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement()! })
      #expect(text.splitting(atASCII: UInt8(ascii: ".")).map(String.init) == Self.scalarSplit(text), "\(text)")
    }
  }

  /// `isCanonical` accepts exactly what strict decoding accepts, without decoding.
  @Test func canonicalIsWhatStrictDecodingAccepts() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= .é")
    for length in 0..<12 {
      for _ in 0..<400 {
        let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
        #expect(Base64URL.isCanonical(Substring(text)) == (Base64URL.decode(text) != nil), "\(text)")
      }
    }
    // Non-zero unused bits: decodes leniently, not canonically.
    #expect(!Base64URL.isCanonical("QR"))
    #expect(Base64URL.isCanonical("QQ"))
    #expect(!Base64URL.isCanonical("QUF"))
    #expect(Base64URL.isCanonical("QUE"))
    #expect(Base64URL.decode(Substring("eyJhIjoxfQ")) == Data(#"{"a":1}"#.utf8))
  }

  @Test func aJWTDecodesFromItsParts() throws {
    let token = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array(#"{"sub":"é"}"#.utf8))
    #expect(JWTValue(raw: token + ".c2ln")?.claims["sub"] == .string("é"))
    #expect(JWTValue(raw: token + ".c2m") == nil, "a signature with non-zero unused bits is not canonical")
    #expect(JWTValue(raw: token + ".\u{301}c2ln") == nil, "a part that is not base64url, whatever the split")
    #expect(JWTValue(raw: token) == nil)
    #expect(JWTValue(raw: token + ".c2ln.x") == nil)
  }
}
