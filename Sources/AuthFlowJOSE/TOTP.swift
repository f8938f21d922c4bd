import Crypto
public import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP).
public struct TOTP: Sendable, Hashable {
  /// The HMAC hash.
  public enum Algorithm: String, Sendable, Hashable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"
  }

  public var secret: [UInt8]
  public var digits: Int
  public var period: Int
  public var algorithm: Algorithm

  public init(secret: [UInt8], digits: Int = 6, period: Int = 30, algorithm: Algorithm = .sha1) {
    self.secret = secret
    self.digits = digits
    self.period = max(1, period)
    self.algorithm = algorithm
  }

  /// A TOTP from a base32 secret (as authenticator apps show it); nil when it is not base32.
  public init?(base32Secret: String, digits: Int = 6, period: Int = 30, algorithm: Algorithm = .sha1) {
    guard let bytes = Base32.decode(base32Secret) else { return nil }
    self.init(secret: bytes, digits: digits, period: period, algorithm: algorithm)
  }

  /// The code at `date`.
  public func code(at date: Date) -> String {
    code(counter: UInt64(max(0, date.timeIntervalSince1970.rounded(.down)) / Double(period)))
  }

  /// The HOTP code for a counter value.
  public func code(counter: UInt64) -> String {
    let message = withUnsafeBytes(of: counter.bigEndian) { Data($0) }
    let key = SymmetricKey(data: secret)
    let mac: [UInt8]
    switch algorithm {
    case .sha1: mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
    case .sha256: mac = Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    case .sha512: mac = Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
    }
    let offset = Int(mac[mac.count - 1] & 0x0f)
    let binary =
      (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
      | UInt32(mac[offset + 3])
    var modulus: UInt32 = 1
    for _ in 0..<min(max(digits, 1), 9) { modulus *= 10 }
    let text = String(binary % modulus)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  /// True when `code` is the code at `date` or within `window` periods either side.
  public func verify(_ code: String, at date: Date, window: Int = 1) -> Bool {
    let counter = Int64(max(0, date.timeIntervalSince1970.rounded(.down)) / Double(period))
    for delta in -Int64(window)...Int64(window) where counter + delta >= 0 {
      if self.code(counter: UInt64(counter + delta)) == code { return true }
    }
    return false
  }
}

/// Base32 (RFC 4648 §6), as TOTP secrets are written.
public enum Base32 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// Decodes base32, ignoring case, spaces, dashes and `=` padding; nil on any other character.
  public static func decode(_ text: String) -> [UInt8]? {
    var buffer: UInt32 = 0
    var bits = 0
    var output: [UInt8] = []
    for byte in text.utf8 {
      if byte == UInt8(ascii: "=") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { continue }
      let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
      guard let index = alphabet.firstIndex(of: upper) else { return nil }
      buffer = (buffer << 5) | UInt32(index)
      bits += 5
      if bits >= 8 {
        bits -= 8
        output.append(UInt8((buffer >> UInt32(bits)) & 0xff))
      }
    }
    return output
  }

  /// Encodes bytes as base32 without padding.
  public static func encode(_ bytes: [UInt8]) -> String {
    var buffer: UInt32 = 0
    var bits = 0
    var output: [UInt8] = []
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        output.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1f)])
      }
    }
    if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1f)]) }
    return String(decoding: output, as: UTF8.self)
  }
}
