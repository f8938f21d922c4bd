import AuthFlowCore

/// Splits expression text into tokens, on demand, over the UTF-8 bytes of the enclosing string;
/// token offsets and lengths are in unicode scalars (see ``SourceCursor``).
///
/// The lexer starts just after a `${{` (or at the start of a bare expression) and is pulled by the
/// parser one token at a time, so that `}}` inside a string literal does not end the expression.
struct Lexer {
  private(set) var cursor: SourceCursor
  /// After a `.`, digits are a member name (`items.0.id`), never a decimal number.
  private var afterDot = false

  init(cursor: SourceCursor) {
    self.cursor = cursor
  }

  private func peek(_ ahead: Int = 0) -> UInt8? { cursor.peek(ahead) }

  private func token(_ kind: Token.Kind, from start: Int) -> Token {
    Token(kind: kind, offset: start, length: cursor.scalar - start)
  }

  mutating func next() throws(ExpressionError) -> Token {
    while let byte = peek(), byte.isASCIIWhitespace { cursor.advance() }
    let start = cursor.scalar
    guard let byte = peek() else { return Token(kind: .end, offset: start, length: 0) }
    let wasAfterDot = afterDot
    afterDot = false
    if byte.isIdentifierStart { return identifier() }
    if byte.isDigit { return try number(integerOnly: wasAfterDot) }
    if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") { return try string(quote: byte) }
    let token = try symbol(byte)
    if token.isSymbol(.dot) { afterDot = true }
    return token
  }

  private mutating func identifier() -> Token {
    let start = cursor.scalar
    let startByte = cursor.byte
    while let byte = peek(), byte.isIdentifierPart { cursor.advance() }
    return token(.identifier(cursor.text(from: startByte, to: cursor.byte)), from: start)
  }

  private mutating func symbol(_ byte: UInt8) throws(ExpressionError) -> Token {
    let start = cursor.scalar
    let two: Token.Symbol? =
      switch (byte, peek(1)) {
      case (UInt8(ascii: "<"), UInt8(ascii: "=")): .lessOrEqual
      case (UInt8(ascii: ">"), UInt8(ascii: "=")): .greaterOrEqual
      case (UInt8(ascii: "="), UInt8(ascii: "=")): .equal
      case (UInt8(ascii: "!"), UInt8(ascii: "=")): .notEqual
      case (UInt8(ascii: "&"), UInt8(ascii: "&")): .and
      case (UInt8(ascii: "|"), UInt8(ascii: "|")): .or
      default: nil
      }
    if let two {
      cursor.advance(2)
      return token(.symbol(two), from: start)
    }
    if byte == UInt8(ascii: "}"), peek(1) == UInt8(ascii: "}") {
      cursor.advance(2)
      return token(.close, from: start)
    }
    let one: Token.Symbol? =
      switch byte {
      case UInt8(ascii: "("): .leftParen
      case UInt8(ascii: ")"): .rightParen
      case UInt8(ascii: "["): .leftBracket
      case UInt8(ascii: "]"): .rightBracket
      case UInt8(ascii: "."): .dot
      case UInt8(ascii: ","): .comma
      case UInt8(ascii: "!"): .bang
      case UInt8(ascii: "+"): .plus
      case UInt8(ascii: "-"): .minus
      case UInt8(ascii: "<"): .less
      case UInt8(ascii: ">"): .greater
      default: nil
      }
    guard let one else {
      let scalar = cursor.advanceScalar() ?? "?"
      throw .unexpectedCharacter(scalar, offset: start)
    }
    cursor.advance()
    return token(.symbol(one), from: start)
  }

  // MARK: Numbers and durations

  private mutating func number(integerOnly: Bool) throws(ExpressionError) -> Token {
    let start = cursor.scalar
    let startByte = cursor.byte
    var isInteger = true
    while let byte = peek(), byte.isDigit { cursor.advance() }
    if !integerOnly, peek() == UInt8(ascii: "."), peek(1)?.isDigit == true {
      isInteger = false
      cursor.advance()
      while let byte = peek(), byte.isDigit { cursor.advance() }
    }
    if !integerOnly, peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      var exponent = 1
      if peek(1) == UInt8(ascii: "+") || peek(1) == UInt8(ascii: "-") { exponent = 2 }
      if peek(exponent)?.isDigit == true {
        isInteger = false
        cursor.advance(exponent)
        while let byte = peek(), byte.isDigit { cursor.advance() }
      }
    }
    let digits = cursor.text(from: startByte, to: cursor.byte)
    let unitStart = cursor.byte
    while let byte = peek(), byte.isIdentifierPart { cursor.advance() }
    let unit = cursor.text(from: unitStart, to: cursor.byte)
    let value: Value
    if unit.isEmpty {
      if isInteger {
        guard let number = Int(digits) else { throw .numberTooLarge(digits, offset: start) }
        value = .int(number)
      } else {
        guard let number = Double(digits), number.isFinite else { throw .numberTooLarge(digits, offset: start) }
        value = .double(number)
      }
    } else {
      guard !integerOnly, let seconds = Self.durationSeconds(digits, unit: unit) else {
        throw .invalidNumber(digits + unit, offset: start)
      }
      value = seconds
    }
    return token(.number(value), from: start)
  }

  /// A duration literal in seconds: an int when whole (`90s`, `5m`, `1000ms`), a double otherwise
  /// (`250ms` is `0.25`).
  static func durationSeconds(_ digits: String, unit: String) -> Value? {
    let scale: Double
    switch unit {
    case "ms": scale = 0.001
    case "s": scale = 1
    case "m": scale = 60
    case "h": scale = 3600
    default: return nil
    }
    guard let amount = Double(digits) else { return nil }
    let seconds = amount * scale
    guard seconds.isFinite else { return nil }
    if seconds.rounded() == seconds, abs(seconds) < 9e15 { return .int(Int(seconds)) }
    return .double(seconds)
  }

  // MARK: Strings

  /// A string in single or double quotes. Escapes: `\n \r \t \0 \\ \' \" \/ \u{…}`; any other
  /// backslash is kept as written (so `'\d+'` is a regex digit class). Inside single quotes `''` is
  /// also a quote, as in GitHub Actions.
  private mutating func string(quote: UInt8) throws(ExpressionError) -> Token {
    let start = cursor.scalar
    cursor.advance()
    var value: [UInt8] = []
    while true {
      guard let byte = peek() else { throw .unterminatedString(offset: start, length: cursor.scalar - start) }
      if byte == quote {
        if quote == UInt8(ascii: "'"), peek(1) == quote {
          value.append(quote)
          cursor.advance(2)
          continue
        }
        cursor.advance()
        break
      }
      if byte == UInt8(ascii: "\\"), peek(1) != nil {
        try escape(into: &value)
        continue
      }
      value.append(byte)
      cursor.advance()
    }
    return token(.string(String(decoding: value, as: UTF8.self)), from: start)
  }

  private mutating func escape(into value: inout [UInt8]) throws(ExpressionError) {
    let start = cursor.scalar
    guard let escaped = peek(1) else { return }
    let simple: UInt8? =
      switch escaped {
      case UInt8(ascii: "n"): UInt8(ascii: "\n")
      case UInt8(ascii: "r"): UInt8(ascii: "\r")
      case UInt8(ascii: "t"): UInt8(ascii: "\t")
      case UInt8(ascii: "0"): 0
      case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "/"): escaped
      default: nil
      }
    if let simple {
      value.append(simple)
      cursor.advance(2)
      return
    }
    guard escaped == UInt8(ascii: "u"), peek(2) == UInt8(ascii: "{") else {
      // Any other backslash stays as written, so regular expressions read naturally: '\d+\.com$'.
      value.append(UInt8(ascii: "\\"))
      cursor.advance()
      return
    }
    cursor.advance(3)
    var code: UInt32 = 0
    var digits = 0
    while let byte = peek(), let digit = byte.hexDigitValue, digits < 8 {
      code = code &* 16 &+ digit
      digits += 1
      cursor.advance()
    }
    guard digits > 0, peek() == UInt8(ascii: "}"), let scalar = Unicode.Scalar(code) else {
      throw .invalidUnicodeEscape(offset: start, length: cursor.scalar - start)
    }
    cursor.advance()
    UTF8.encode(scalar) { value.append($0) }
  }
}

extension UInt8 {
  fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

  fileprivate var isIdentifierStart: Bool {
    (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
      || self == UInt8(ascii: "_")
  }

  fileprivate var isIdentifierPart: Bool { isIdentifierStart || isDigit }

  fileprivate var isASCIIWhitespace: Bool {
    self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") || self == UInt8(ascii: "\n") || self == UInt8(ascii: "\r")
  }

  fileprivate var hexDigitValue: UInt32? {
    switch self {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(self) - 48
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(self) - 87
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(self) - 55
    default: return nil
    }
  }
}
