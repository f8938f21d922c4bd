/// Why a JSON text could not be read: what was wrong and at which byte.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  /// The byte offset of the problem in the input.
  public var offset: Int

  public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

/// Reads RFC 8259 JSON straight into a `Value`, in one pass over the UTF-8 bytes.
///
/// `JSONDecoder` reaches a `Value` through `Decodable`, which has to try each kind of value in turn
/// and throws on every miss; tokens, response bodies and request bodies are parsed on every step of
/// a run and every request of the mock, so this parser is the one `Value(json:)` uses.
///
/// Integers that fit in `Int` stay integers; every other number is a `Double`. A repeated object key
/// keeps its last value, unless the parse rejects duplicates (JOSE headers and JWT claims, RFC 7515 §5.2). Nesting deeper than `maximumDepth` is an error, never a stack overflow.
struct JSONParser {
  static let maximumDepth = 512

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0
  private var rejectsDuplicateKeys = false

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Parses one JSON text: a single value with optional whitespace around it (and an optional
  /// UTF-8 byte order mark before it).
  static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, rejectingDuplicateKeys: Bool = false
  ) throws(JSONSyntaxError) -> Value {
    var parser = JSONParser(bytes: bytes)
    parser.rejectsDuplicateKeys = rejectingDuplicateKeys
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.index = 3 }
    parser.skipWhitespace()
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.failure("unexpected text after the value") }
    return value
  }

  private func failure(_ message: String) -> JSONSyntaxError {
    JSONSyntaxError(message: message, offset: index)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func value() throws(JSONSyntaxError) -> Value {
    guard let byte = current else { throw failure("unexpected end of input, expected a value") }
    switch byte {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw failure("unexpected character, expected a value")
    }
  }

  private mutating func literal(_ word: StaticString, _ value: Value) throws(JSONSyntaxError) -> Value {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw failure("unexpected end of input in a literal") }
    let (bytes, start) = (self.bytes, index)
    let matches = word.withUTF8Buffer { expected in
      (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
    }
    guard matches else { throw failure("invalid literal") }
    index += count
    return value
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > Self.maximumDepth { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func object() throws(JSONSyntaxError) -> Value {
    try enter()
    index += 1
    var members: [String: Value] = [:]
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
      let key = try string()
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
      if rejectsDuplicateKeys, members[key] != nil { throw failure("duplicate member name \"\(key)\"") }
      index += 1
      skipWhitespace()
      members[key] = try value()
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return .object(members)
      default:
        throw failure("expected ',' or '}' in an object")
      }
    }
  }

  private mutating func array() throws(JSONSyntaxError) -> Value {
    try enter()
    index += 1
    var items: [Value] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(items)
    }
    while true {
      items.append(try value())
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return .array(items)
      default:
        throw failure("expected ',' or ']' in an array")
      }
    }
  }

  /// A string starting at the opening quote. Runs without escapes are copied as they are, after a
  /// UTF-8 validity check.
  private mutating func string() throws(JSONSyntaxError) -> String {
    index += 1
    var result = ""
    var runStart = index
    while true {
      guard index < bytes.count else { throw failure("unterminated string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        try appendRun(from: runStart, to: index, into: &result)
        index += 1
        return result
      }
      if byte < 0x20 { throw failure("control character in a string (escape it)") }
      if byte == UInt8(ascii: "\\") {
        try appendRun(from: runStart, to: index, into: &result)
        try escape(into: &result)
        runStart = index
        continue
      }
      index += 1
    }
  }

  private func appendRun(from start: Int, to end: Int, into result: inout String) throws(JSONSyntaxError) {
    guard end > start else { return }
    let run = UnsafeBufferPointer(rebasing: bytes[start..<end])
    guard let text = String(validating: run, as: UTF8.self) else {
      throw JSONSyntaxError(message: "invalid UTF-8 in a string", offset: start)
    }
    result += text
  }

  private mutating func escape(into result: inout String) throws(JSONSyntaxError) {
    index += 1
    guard let byte = current else { throw failure("unterminated escape") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): result += "\""
    case UInt8(ascii: "\\"): result += "\\"
    case UInt8(ascii: "/"): result += "/"
    case UInt8(ascii: "b"): result += "\u{08}"
    case UInt8(ascii: "f"): result += "\u{0C}"
    case UInt8(ascii: "n"): result += "\n"
    case UInt8(ascii: "r"): result += "\r"
    case UInt8(ascii: "t"): result += "\t"
    case UInt8(ascii: "u"):
      let unit = try hexUnit()
      var scalarValue = UInt32(unit)
      if (0xD800...0xDBFF).contains(unit) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { throw failure("a high surrogate must be followed by a low surrogate") }
        index += 2
        let low = try hexUnit()
        guard (0xDC00...0xDFFF).contains(low) else { throw failure("invalid low surrogate") }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      }
      guard let scalar = Unicode.Scalar(scalarValue) else { throw failure("lone low surrogate") }
      result.unicodeScalars.append(scalar)
    default:
      throw failure("invalid escape")
    }
  }

  private mutating func hexUnit() throws(JSONSyntaxError) -> UInt16 {
    guard index + 4 <= bytes.count else { throw failure("unterminated \\u escape") }
    var unit: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("invalid hex digit in a \\u escape")
      }
      unit = unit << 4 | UInt16(digit)
      index += 1
    }
    return unit
  }

  private mutating func number() throws(JSONSyntaxError) -> Value {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, isDigit(first) else { throw failure("expected a digit") }
    if first == UInt8(ascii: "0") {
      index += 1
      if let next = current, isDigit(next) { throw failure("a number may not have a leading zero") }
    } else {
      skipDigits()
    }
    var isInteger = true
    if current == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard let digit = current, isDigit(digit) else { throw failure("expected a digit after '.'") }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard let digit = current, isDigit(digit) else { throw failure("expected a digit in the exponent") }
      skipDigits()
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if isInteger, let integer = Int(text) { return .int(integer) }
    guard let number = Double(text), number.isFinite else {
      throw JSONSyntaxError(message: "number out of range", offset: start)
    }
    return .double(number)
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private mutating func skipDigits() {
    while let byte = current, isDigit(byte) { index += 1 }
  }
}
