/// Why CBOR bytes could not be decoded.
public enum CBORError: Error, Sendable, Hashable, CustomStringConvertible {
  case truncated
  case indefiniteLength
  case unsupported(UInt8)
  case invalidText
  case tooDeep
  case trailingBytes

  public var description: String {
    switch self {
    case .truncated: return "CBOR data ends early"
    case .indefiniteLength: return "indefinite-length CBOR items are not supported"
    case .unsupported(let byte): return "unsupported CBOR initial byte 0x\(String(byte, radix: 16))"
    case .invalidText: return "CBOR text string is not valid UTF-8"
    case .tooDeep: return "CBOR data nests too deeply"
    case .trailingBytes: return "CBOR data has bytes after the item"
    }
  }
}

/// Decodes `CBOR` items (definite lengths only; tags are not supported).
public struct CBORDecoder {
  private let bytes: [UInt8]
  /// The offset of the next unread byte.
  public private(set) var offset: Int
  private static let maximumDepth = 32

  public init(_ bytes: [UInt8], offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  /// Decodes exactly one item filling all of `bytes`.
  public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
    var decoder = CBORDecoder(bytes)
    let item = try decoder.decodeItem()
    guard decoder.offset == bytes.count else { throw .trailingBytes }
    return item
  }

  /// Decodes the next item and moves past it (authenticator data holds a COSE key followed by
  /// extensions).
  public mutating func decodeItem() throws(CBORError) -> CBOR {
    try item(depth: 0)
  }

  private mutating func byte() throws(CBORError) -> UInt8 {
    guard offset < bytes.count else { throw .truncated }
    defer { offset += 1 }
    return bytes[offset]
  }

  private mutating func take(_ count: UInt64) throws(CBORError) -> [UInt8] {
    guard count <= UInt64(bytes.count - offset) else { throw .truncated }
    let end = offset + Int(count)
    defer { offset = end }
    return Array(bytes[offset..<end])
  }

  private mutating func argument(_ info: UInt8, initial: UInt8) throws(CBORError) -> UInt64 {
    switch info {
    case 0..<24: return UInt64(info)
    case 24, 25, 26, 27:
      var value: UInt64 = 0
      for byte in try take(1 << UInt64(info - 24)) { value = value << 8 | UInt64(byte) }
      return value
    case 31: throw .indefiniteLength
    default: throw .unsupported(initial)
    }
  }

  private mutating func item(depth: Int) throws(CBORError) -> CBOR {
    guard depth < Self.maximumDepth else { throw .tooDeep }
    let initial = try byte()
    let major = initial >> 5
    let info = initial & 0x1f
    if major == 7 { return try simple(info, initial: initial) }
    let value = try argument(info, initial: initial)
    switch major {
    case 0: return .unsigned(value)
    case 1: return .negative(value)
    case 2: return .bytes(try take(value))
    case 3:
      guard let text = String(validating: try take(value), as: UTF8.self) else { throw .invalidText }
      return .text(text)
    case 4:
      guard value <= UInt64(bytes.count - offset) else { throw .truncated }
      var items: [CBOR] = []
      for _ in 0..<value { items.append(try item(depth: depth + 1)) }
      return .array(items)
    case 5:
      guard value <= UInt64(bytes.count - offset) else { throw .truncated }
      var members: [CBOR: CBOR] = [:]
      for _ in 0..<value {
        let key = try item(depth: depth + 1)
        members[key] = try item(depth: depth + 1)
      }
      return .map(members)
    default: throw .unsupported(initial)
    }
  }

  private mutating func simple(_ info: UInt8, initial: UInt8) throws(CBORError) -> CBOR {
    switch info {
    case 20: return .bool(false)
    case 21: return .bool(true)
    case 22: return .null
    case 23: return .undefined
    case 0..<20: return .simple(info)
    case 24:
      let value = try byte()
      guard value >= 32 else { throw .unsupported(initial) }
      return .simple(value)
    case 25:
      let raw = try take(2)
      return .float(Self.half(UInt16(raw[0]) << 8 | UInt16(raw[1])))
    case 26:
      var bits: UInt32 = 0
      for byte in try take(4) { bits = bits << 8 | UInt32(byte) }
      return .float(Double(Float(bitPattern: bits)))
    case 27:
      var bits: UInt64 = 0
      for byte in try take(8) { bits = bits << 8 | UInt64(byte) }
      return .float(Double(bitPattern: bits))
    case 31: throw .indefiniteLength
    default: throw .unsupported(initial)
    }
  }

  /// IEEE 754 half precision (RFC 8949 Appendix D).
  private static func half(_ bits: UInt16) -> Double {
    let exponent = Int(bits >> 10) & 0x1f
    let mantissa = Double(bits & 0x3ff)
    let magnitude: Double
    switch exponent {
    case 0: magnitude = mantissa * 0x1p-24
    case 31: magnitude = mantissa == 0 ? .infinity : .nan
    default: magnitude = (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
    }
    return bits & 0x8000 != 0 ? -magnitude : magnitude
  }
}
