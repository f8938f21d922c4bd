import AuthFlowJOSE
import Foundation
import Testing

/// RFC 8949 Appendix A vectors for the major types supported (0–5, 7), both directions where the
/// encoding is the preferred one.
@Suite struct CBORTests {
  static func bytes(_ hex: String) -> [UInt8] {
    var output: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      output.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return output
  }

  static let roundTrips: [(CBOR, String)] = [
    (.unsigned(0), "00"), (.unsigned(1), "01"), (.unsigned(10), "0a"), (.unsigned(23), "17"),
    (.unsigned(24), "1818"), (.unsigned(25), "1819"), (.unsigned(100), "1864"), (.unsigned(1000), "1903e8"),
    (.unsigned(1_000_000), "1a000f4240"), (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"),
    (.unsigned(18_446_744_073_709_551_615), "1bffffffffffffffff"),
    (.negative(18_446_744_073_709_551_615), "3bffffffffffffffff"),
    (.int(-1), "20"), (.int(-10), "29"), (.int(-100), "3863"), (.int(-1000), "3903e7"),
    (.bool(false), "f4"), (.bool(true), "f5"), (.null, "f6"), (.undefined, "f7"), (.simple(16), "f0"),
    (.simple(255), "f8ff"), (.float(1.1), "fb3ff199999999999a"), (.float(-4.1), "fbc010666666666666"),
    (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"), (.text(""), "60"), (.text("a"), "6161"),
    (.text("IETF"), "6449455446"), (.text("\"\\"), "62225c"), (.text("\u{00fc}"), "62c3bc"),
    (.text("\u{6c34}"), "63e6b0b4"), (.text("\u{10151}"), "64f0908591"), (.array([]), "80"),
    (.array([.int(1), .int(2), .int(3)]), "83010203"),
    (.array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])]), "8301820203820405"),
    (.array((1...25).map(CBOR.int)), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
    (.map([:]), "a0"), (.map([.int(1): .int(2), .int(3): .int(4)]), "a201020304"),
    (.map([.text("a"): .int(1), .text("b"): .array([.int(2), .int(3)])]), "a26161016162820203"),
    (.array([.text("a"), .map([.text("b"): .text("c")])]), "826161a161626163"),
    (
      .map([
        .text("a"): .text("A"), .text("b"): .text("B"), .text("c"): .text("C"), .text("d"): .text("D"),
        .text("e"): .text("E"),
      ]),
      "a56161614161626142616361436164614461656145"
    ),
  ]

  @Test func appendixAVectorsEncodeAndDecode() throws {
    for (item, hex) in Self.roundTrips {
      #expect(item.encoded == Self.bytes(hex), "encoding \(item)")
      #expect(try CBORDecoder.decode(Self.bytes(hex)) == item, "decoding \(hex)")
    }
  }

  @Test func appendixAFloatsDecode() throws {
    let floats: [(String, Double)] = [
      ("f90000", 0.0), ("f93c00", 1.0), ("f93e00", 1.5), ("f97bff", 65504.0), ("fa47c35000", 100000.0),
      ("fa7f7fffff", 3.4028234663852886e+38), ("fb7e37e43c8800759c", 1.0e+300), ("f90001", 5.960464477539063e-8),
      ("f90400", 0.00006103515625), ("f9c400", -4.0), ("f97c00", .infinity), ("f9fc00", -.infinity),
    ]
    for (hex, expected) in floats {
      #expect(try CBORDecoder.decode(Self.bytes(hex)) == .float(expected), "decoding \(hex)")
    }
    guard case .float(let nan) = try CBORDecoder.decode(Self.bytes("f97e00")) else {
      Issue.record("f97e00 is not a float")
      return
    }
    #expect(nan.isNaN)
  }

  @Test func mapKeysEncodeInCanonicalOrder() {
    // COSE labels 1, 3, -1, -2, -3 encode as 01, 03, 20, 21, 22: bytewise order.
    let map = CBOR.map([.int(-3): .int(0), .int(-1): .int(0), .int(3): .int(0), .int(1): .int(0), .int(-2): .int(0)])
    #expect(map.encoded == Self.bytes("a501000300200021002200"))
    let mixed = CBOR.map([.text("aa"): .int(1), .text("b"): .int(2), .int(10): .int(3)])
    #expect(mixed.encoded == Self.bytes("a30a0361620262616101"))
  }

  @Test func malformedInputIsRejectedNotCrashed() {
    let cases: [(String, CBORError)] = [
      ("", .truncated), ("18", .truncated), ("44010203", .truncated), ("5f", .indefiniteLength),
      ("9f", .indefiniteLength), ("c0", .unsupported(0xc0)), ("1c", .unsupported(0x1c)), ("62c3", .truncated),
      ("61ff", .invalidText), ("0000", .trailingBytes), ("9bffffffffffffffff", .truncated),
      ("bbffffffffffffffff", .truncated), ("f818", .unsupported(0xf8)),
    ]
    for (hex, expected) in cases {
      #expect(throws: expected, "decoding \(hex)") { try CBORDecoder.decode(Self.bytes(hex)) }
    }
    #expect(throws: CBORError.tooDeep) { try CBORDecoder.decode([UInt8](repeating: 0x81, count: 100) + [0]) }
  }
}
