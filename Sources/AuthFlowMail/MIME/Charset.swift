/// The character sets a body or encoded-word may be written in; anything else decodes as UTF-8.
enum Charset: Sendable, Hashable {
  case utf8
  case latin1
  case windows1252

  /// The charset named `name` (case-insensitive, common aliases); unknown names fall back to UTF-8.
  init(named name: String?) {
    let key = (name ?? "").trimmingSpace().lowercased()
    switch key {
    case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819", "ibm819":
      self = .latin1
    case "windows-1252", "cp1252", "x-cp1252", "win-1252":
      self = .windows1252
    default:
      self = .utf8
    }
  }

  /// Text from `bytes`; never fails: invalid UTF-8 becomes U+FFFD.
  func decode(_ bytes: some Collection<UInt8>) -> String {
    switch self {
    case .utf8:
      return String(decoding: bytes, as: UTF8.self)
    case .latin1:
      var scalars = String.UnicodeScalarView()
      for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
      return String(scalars)
    case .windows1252:
      var scalars = String.UnicodeScalarView()
      for byte in bytes {
        if byte >= 0x80, byte <= 0x9F, let scalar = Unicode.Scalar(Self.windows1252High[Int(byte - 0x80)]) {
          scalars.append(scalar)
        } else {
          scalars.append(Unicode.Scalar(byte))
        }
      }
      return String(scalars)
    }
  }

  /// Code points of windows-1252 bytes 0x80–0x9F (undefined ones map to the C1 control of the same value).
  private static let windows1252High: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
    0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0x9D, 0x017E, 0x0178,
  ]
}
