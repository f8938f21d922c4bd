import AuthFlowJOSE
import Foundation
import Testing

@Suite struct TOTPTests {
  // RFC 6238 Appendix B: the seeds are ASCII "1234567890" repeated to the hash's key length.
  static let sha1Seed = Array("12345678901234567890".utf8)
  static let sha256Seed = Array("12345678901234567890123456789012".utf8)
  static let sha512Seed = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

  static let vectors: [(Int, String, String, String)] = [
    (59, "94287082", "46119246", "90693936"),
    (1_111_111_109, "07081804", "68084774", "25091201"),
    (1_111_111_111, "14050471", "67062674", "99943326"),
    (1_234_567_890, "89005924", "91819424", "93441116"),
    (2_000_000_000, "69279037", "90698825", "38618901"),
    (20_000_000_000, "65353130", "77737706", "47863826"),
  ]

  @Test(arguments: vectors)
  func rfc6238AppendixB(_ vector: (Int, String, String, String)) {
    let date = Date(timeIntervalSince1970: TimeInterval(vector.0))
    #expect(TOTP(secret: Self.sha1Seed, digits: 8).code(at: date) == vector.1)
    #expect(TOTP(secret: Self.sha256Seed, digits: 8, algorithm: .sha256).code(at: date) == vector.2)
    #expect(TOTP(secret: Self.sha512Seed, digits: 8, algorithm: .sha512).code(at: date) == vector.3)
  }

  @Test func sixDigitsAreTheLowDigits() {
    let date = Date(timeIntervalSince1970: 59)
    #expect(TOTP(secret: Self.sha1Seed).code(at: date) == "287082")
  }

  @Test func base32SecretRoundTrip() throws {
    // "12345678901234567890" in base32.
    let totp = try #require(TOTP(base32Secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", digits: 8))
    #expect(totp.secret == Self.sha1Seed)
    #expect(Base32.encode(Self.sha1Seed) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    #expect(TOTP(base32Secret: "not base32!") == nil)
  }

  @Test func verifyAcceptsTheAdjacentWindow() {
    let totp = TOTP(secret: Self.sha1Seed)
    let date = Date(timeIntervalSince1970: 1_111_111_111)
    #expect(totp.verify(totp.code(at: date.addingTimeInterval(-30)), at: date))
    #expect(!totp.verify(totp.code(at: date.addingTimeInterval(-90)), at: date))
  }
}
