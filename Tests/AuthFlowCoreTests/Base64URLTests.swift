import AuthFlowCore
import Foundation
import Testing

@Suite("Base64url")
struct Base64URLTests {
  @Test("RFC 4648 test vectors, without padding, url alphabet")
  func vectors() {
    let vectors = [
      "": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy",
    ]
    for (plain, encoded) in vectors {
      #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
      #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }
    #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    #expect(Base64URL.decode("-_-_") == Data([0xFB, 0xFF, 0xBF]))
  }

  @Test("Every length and byte round-trips, and matches Foundation's base64 with the url alphabet")
  func roundTrip() {
    var generator = SystemRandomNumberGenerator()
    for length in 0..<70 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let encoded = Base64URL.encode(bytes)
      let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
      #expect(encoded == foundation)
      #expect(Base64URL.decode(encoded) == Data(bytes))
    }
  }

  @Test("Strict: padding, the standard alphabet, whitespace and non-zero unused bits are rejected")
  func strictDecoding() {
    #expect(Base64URL.decode("Zg==") == nil)
    #expect(Base64URL.decode("Zm8=") == nil)
    #expect(Base64URL.decode("+/+/") == nil)
    #expect(Base64URL.decode("Zh") == nil, "unused bits of the last character set")
    #expect(Base64URL.decode("Zm9") == nil, "unused bits of the last character set")
    #expect(Base64URL.decode("Zm8") == Data("fo".utf8))
    #expect(Base64URL.decode("Zm9v\n") == nil)
    #expect(Base64URL.decode(" Zm9v") == nil)
  }

  @Test("Lenient decoding (user-facing text only) takes padding, + and / and unused bits")
  func lenientDecoding() {
    #expect(Base64URL.decodeLenient("Zg==") == Data("f".utf8))
    #expect(Base64URL.decodeLenient("Zm8=") == Data("fo".utf8))
    #expect(Base64URL.decodeLenient("+/+/") == Data([0xFB, 0xFF, 0xBF]))
    #expect(Base64URL.decodeLenient("Zh") == Data("f".utf8))
    #expect(Base64URL.decodeLenient("Zm 9v") == nil)
  }

  @Test("Other characters and impossible lengths are rejected")
  func decoding() {
    #expect(Base64URL.decode("Z") == nil)
    #expect(Base64URL.decode("Zm9vY") == nil)
    #expect(Base64URL.decode("Zm 9v") == nil)
    #expect(Base64URL.decode("Zm9v.") == nil)
    #expect(Base64URL.decode("Zg=a") == nil)
    #expect(Base64URL.decode("é") == nil)
  }
}
