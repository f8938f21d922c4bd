/// Encodes `CBOR` items: shortest-form heads, definite lengths, canonical map key order.
extension CBOR {
  /// The encoded bytes.
  public var encoded: [UInt8] {
    var output: [UInt8] = []
    encode(into: &output)
    return output
  }

  func encode(into output: inout [UInt8]) {
    switch self {
    case .unsigned(let value): Self.head(0, value, into: &output)
    case .negative(let value): Self.head(1, value, into: &output)
    case .bytes(let bytes):
      Self.head(2, UInt64(bytes.count), into: &output)
      output += bytes
    case .text(let text):
      let utf8 = Array(text.utf8)
      Self.head(3, UInt64(utf8.count), into: &output)
      output += utf8
    case .array(let items):
      Self.head(4, UInt64(items.count), into: &output)
      for item in items { item.encode(into: &output) }
    case .map(let members):
      Self.head(5, UInt64(members.count), into: &output)
      let entries = members.map { (key: $0.key.encoded, value: $0.value) }
      for entry in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
        output += entry.key
        entry.value.encode(into: &output)
      }
    case .bool(let flag): output.append(flag ? 0xf5 : 0xf4)
    case .null: output.append(0xf6)
    case .undefined: output.append(0xf7)
    case .simple(let value):
      if value < 24 {
        output.append(0xe0 | value)
      } else {
        output += [0xf8, value]
      }
    case .float(let value):
      output.append(0xfb)
      let bits = value.bitPattern
      for shift in stride(from: 56, through: 0, by: -8) {
        output.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
      }
    }
  }

  /// The initial byte and argument in the shortest form.
  private static func head(_ major: UInt8, _ argument: UInt64, into output: inout [UInt8]) {
    let type = major << 5
    switch argument {
    case 0..<24: output.append(type | UInt8(argument))
    case 24...0xff: output += [type | 24, UInt8(argument)]
    case 0x100...0xffff: output += [type | 25, UInt8(argument >> 8), UInt8(truncatingIfNeeded: argument)]
    case 0x1_0000...0xffff_ffff:
      output.append(type | 26)
      for shift in stride(from: 24, through: 0, by: -8) {
        output.append(UInt8(truncatingIfNeeded: argument >> UInt64(shift)))
      }
    default:
      output.append(type | 27)
      for shift in stride(from: 56, through: 0, by: -8) {
        output.append(UInt8(truncatingIfNeeded: argument >> UInt64(shift)))
      }
    }
  }
}
