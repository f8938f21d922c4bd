public import Foundation

extension Value {
  /// Parses JSON into a value. Integers stay integers; other numbers become doubles. Throws
  /// `JSONSyntaxError`.
  /// With `rejectingDuplicateKeys`, an object that repeats a member name is an error (JOSE
  /// headers and JWT claims, RFC 7515 §5.2 / RFC 7519 §4) instead of keeping the last value.
  public init(json data: Data, rejectingDuplicateKeys: Bool = false) throws {
    let parsed = data.withUnsafeBytes { raw in
      Result { () throws(JSONSyntaxError) in
        try JSONParser.parse(raw.bindMemory(to: UInt8.self), rejectingDuplicateKeys: rejectingDuplicateKeys)
      }
    }
    self = try parsed.get()
  }

  /// Parses JSON text into a value.
  public init(jsonText: String) throws {
    var text = jsonText
    let parsed = text.withUTF8 { bytes in Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) } }
    self = try parsed.get()
  }

  /// Serializes the value as JSON with sorted keys. Secrets are written as `redaction`
  /// unless `revealSecrets` is true.
  public func jsonText(pretty: Bool = false, revealSecrets: Bool = false) -> String {
    jsonText(pretty: pretty, revealSecrets: revealSecrets, level: 0)
  }

  /// ``jsonText(pretty:revealSecrets:)`` of the value as it reads `level` levels deep inside a
  /// pretty document (its lines after the first indented that much more): what a writer that
  /// streams a large document piece by piece writes for each piece.
  public func jsonText(pretty: Bool, revealSecrets: Bool, level: Int) -> String {
    var output = ""
    writeJSON(into: &output, pretty: pretty, indent: level, reveal: revealSecrets)
    return output
  }

  /// The text shown to a person: strings bare, everything else as compact JSON; secrets redacted
  /// unless `revealSecrets`.
  public func display(revealSecrets: Bool = false) -> String {
    switch self {
    case .string(let text): return text
    case .secret(let inner): return revealSecrets ? inner.display(revealSecrets: true) : Redaction.mask
    case .jwt(let token): return revealSecrets ? token.raw : Redaction.mask
    default: return jsonText(revealSecrets: revealSecrets)
    }
  }

  private func writeJSON(into output: inout String, pretty: Bool, indent: Int, reveal: Bool) {
    switch self {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .int(let number): output += String(number)
    case .double(let number):
      if number.isFinite {
        output += number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
      } else {
        output += "null"
      }
    case .string(let text): Value.writeJSONString(text, into: &output)
    case .secret(let inner):
      if reveal {
        inner.writeJSON(into: &output, pretty: pretty, indent: indent, reveal: reveal)
      } else {
        Value.writeJSONString(Redaction.mask, into: &output)
      }
    case .jwt(let token): Value.writeJSONString(reveal ? token.raw : Redaction.mask, into: &output)
    case .array(let items):
      if items.isEmpty {
        output += "[]"
        return
      }
      output += "["
      for (offset, item) in items.enumerated() {
        if offset > 0 { output += "," }
        if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
        item.writeJSON(into: &output, pretty: pretty, indent: indent + 1, reveal: reveal)
      }
      if pretty { output += "\n" + String(repeating: "  ", count: indent) }
      output += "]"
    case .object(let members):
      if members.isEmpty {
        output += "{}"
        return
      }
      output += "{"
      for (offset, key) in members.keys.sorted().enumerated() {
        if offset > 0 { output += "," }
        if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
        Value.writeJSONString(key, into: &output)
        output += pretty ? ": " : ":"
        members[key]?.writeJSON(into: &output, pretty: pretty, indent: indent + 1, reveal: reveal)
      }
      if pretty { output += "\n" + String(repeating: "  ", count: indent) }
      output += "}"
    }
  }

  /// Appends `text` as a JSON string literal. Runs of bytes that need no escaping are copied
  /// whole (every escaped character is ASCII, so runs always end on a character boundary).
  public static func writeJSONString(_ text: String, into output: inout String) {
    output += "\""
    var text = text
    text.withUTF8 { bytes in
      var runStart = 0
      for index in bytes.indices {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
        if index > runStart {
          output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
        }
        switch byte {
        case UInt8(ascii: "\""): output += "\\\""
        case UInt8(ascii: "\\"): output += "\\\\"
        case UInt8(ascii: "\n"): output += "\\n"
        case UInt8(ascii: "\r"): output += "\\r"
        case UInt8(ascii: "\t"): output += "\\t"
        default:
          let hex = String(byte, radix: 16)
          output += "\\u00" + (hex.count == 1 ? "0" + hex : hex)
        }
        runStart = index + 1
      }
      if runStart < bytes.count {
        output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]), as: UTF8.self)
      }
    }
    output += "\""
  }
}

extension Value: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Int.self) {
      self = .int(number)
    } else if let number = try? container.decode(Double.self) {
      self = .double(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let items = try? container.decode([Value].self) {
      self = .array(items)
    } else {
      self = .object(try container.decode([String: Value].self))
    }
  }

  /// Encodes the revealed value: callers that write outputs use `jsonText`, which redacts.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let flag): try container.encode(flag)
    case .int(let number): try container.encode(number)
    case .double(let number): try container.encode(number)
    case .string(let text): try container.encode(text)
    case .array(let items): try container.encode(items)
    case .object(let members): try container.encode(members)
    case .secret(let inner): try container.encode(inner)
    case .jwt(let token): try container.encode(token.raw)
    }
  }
}
