/// A CBOR data item (RFC 8949), limited to what WebAuthn needs: major types 0–5 and 7, definite
/// lengths only. Hand-written: no library here does CBOR (docs/design.md §5).
public indirect enum CBOR: Sendable, Hashable {
  /// Major type 0.
  case unsigned(UInt64)
  /// Major type 1: the value is `-1 - n`.
  case negative(UInt64)
  /// Major type 2.
  case bytes([UInt8])
  /// Major type 3.
  case text(String)
  /// Major type 4.
  case array([CBOR])
  /// Major type 5. Encoded in canonical key order (bytewise order of the encoded keys, RFC 8949 §4.2.1).
  case map([CBOR: CBOR])
  /// Major type 7: `false`, `true`.
  case bool(Bool)
  /// Major type 7: `null`.
  case null
  /// Major type 7: `undefined`.
  case undefined
  /// Major type 7: another simple value.
  case simple(UInt8)
  /// Major type 7: a half, single or double float (encoded as a double).
  case float(Double)

  /// An integer item: major type 0 for non-negative values, 1 for negative ones.
  public static func int(_ value: Int) -> CBOR {
    value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
  }

  /// The integer value of a major-type 0 or 1 item, when it fits an `Int`.
  public var intValue: Int? {
    switch self {
    case .unsigned(let value): return value <= UInt64(Int.max) ? Int(value) : nil
    case .negative(let value): return value <= UInt64(Int.max) ? -1 - Int(value) : nil
    default: return nil
    }
  }

  public var bytesValue: [UInt8]? {
    if case .bytes(let bytes) = self { return bytes }
    return nil
  }

  public var textValue: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  public var mapValue: [CBOR: CBOR]? {
    if case .map(let map) = self { return map }
    return nil
  }

  /// The member of a map under a text key.
  public subscript(key: String) -> CBOR? { mapValue?[.text(key)] }

  /// The member of a map under an integer key (COSE labels).
  public subscript(label label: Int) -> CBOR? { mapValue?[.int(label)] }
}
