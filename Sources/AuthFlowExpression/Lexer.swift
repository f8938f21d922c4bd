import AuthFlowCore

/// Splits expression text into tokens, on demand, over the unicode scalars of the enclosing string.
///
/// The lexer starts just after a `${{` (or at the start of a bare expression) and is pulled by the
/// parser one token at a time, so that `}}` inside a string literal does not end the expression.
struct Lexer {
  private let scalars: [Unicode.Scalar]
  private(set) var position: Int
  /// After a `.`, digits are a member name (`items.0.id`), never a decimal number.
  private var afterDot = false

  init(scalars: [Unicode.Scalar], start: Int) {
    self.scalars = scalars
    self.position = start
  }

  private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
    let index = position + ahead
    return index < scalars.count ? scalars[index] : nil
  }

  mutating func next() throws(ExpressionError) -> Token {
    while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
    let start = position
    guard let scalar = peek() else { return Token(kind: .end, offset: start, length: 0) }
    let wasAfterDot = afterDot
    afterDot = false
    if scalar.isIdentifierStart { return identifier() }
    if scalar.isDigit { return try number(integerOnly: wasAfterDot) }
    if scalar == "'" || scalar == "\"" { return try string(quote: scalar) }
    let token = try symbol(scalar)
    if token.isSymbol(.dot) { afterDot = true }
    return token
  }

  private mutating func identifier() -> Token {
    let start = position
    while let scalar = peek(), scalar.isIdentifierPart { position += 1 }
    return Token(kind: .identifier(text(from: start)), offset: start, length: position - start)
  }

  private func text(from start: Int) -> String {
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars[start..<position])
    return result
  }

  private mutating func symbol(_ scalar: Unicode.Scalar) throws(ExpressionError) -> Token {
    let start = position
    let two: Token.Symbol? =
      switch (scalar, peek(1)) {
      case ("<", "="): .lessOrEqual
      case (">", "="): .greaterOrEqual
      case ("=", "="): .equal
      case ("!", "="): .notEqual
      case ("&", "&"): .and
      case ("|", "|"): .or
      default: nil
      }
    if let two {
      position += 2
      return Token(kind: .symbol(two), offset: start, length: 2)
    }
    if scalar == "}", peek(1) == "}" {
      position += 2
      return Token(kind: .close, offset: start, length: 2)
    }
    guard let one = Token.Symbol(rawValue: String(scalar)) else {
      throw .unexpectedCharacter(scalar, offset: start)
    }
    position += 1
    return Token(kind: .symbol(one), offset: start, length: 1)
  }

  // MARK: Numbers and durations

  private mutating func number(integerOnly: Bool) throws(ExpressionError) -> Token {
    let start = position
    var isInteger = true
    while let scalar = peek(), scalar.isDigit { position += 1 }
    if !integerOnly, peek() == ".", peek(1)?.isDigit == true {
      isInteger = false
      position += 1
      while let scalar = peek(), scalar.isDigit { position += 1 }
    }
    if !integerOnly, peek() == "e" || peek() == "E" {
      let exponentStart = position
      position += 1
      if peek() == "+" || peek() == "-" { position += 1 }
      if peek()?.isDigit == true {
        isInteger = false
        while let scalar = peek(), scalar.isDigit { position += 1 }
      } else {
        position = exponentStart
      }
    }
    let digits = text(from: start)
    let unitStart = position
    while let scalar = peek(), scalar.isIdentifierPart { position += 1 }
    let unit = text(from: unitStart)
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
    return Token(kind: .number(value), offset: start, length: position - start)
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
  private mutating func string(quote: Unicode.Scalar) throws(ExpressionError) -> Token {
    let start = position
    position += 1
    var value = String.UnicodeScalarView()
    while true {
      guard let scalar = peek() else { throw .unterminatedString(offset: start, length: position - start) }
      if scalar == quote {
        if quote == "'", peek(1) == "'" {
          value.append(quote)
          position += 2
          continue
        }
        position += 1
        break
      }
      if scalar == "\\", peek(1) != nil {
        value.append(try escape())
        continue
      }
      value.append(scalar)
      position += 1
    }
    return Token(kind: .string(String(value)), offset: start, length: position - start)
  }

  private mutating func escape() throws(ExpressionError) -> Unicode.Scalar {
    let start = position
    guard let escaped = peek(1) else {
      position += 1
      return "\\"
    }
    position += 2
    switch escaped {
    case "n": return "\n"
    case "r": return "\r"
    case "t": return "\t"
    case "0": return "\0"
    case "\\", "'", "\"", "/": return escaped
    case "u" where peek() == "{":
      position += 1
      var code: UInt32 = 0
      var digits = 0
      while let scalar = peek(), let digit = scalar.hexDigitValue, digits < 8 {
        code = code * 16 + digit
        digits += 1
        position += 1
      }
      guard digits > 0, peek() == "}", let result = Unicode.Scalar(code) else {
        throw .invalidUnicodeEscape(offset: start, length: position - start)
      }
      position += 1
      return result
    default:
      // Any other backslash stays as written, so regular expressions read naturally: '\d+\.com$'.
      position = start + 1
      return "\\"
    }
  }
}

extension Unicode.Scalar {
  fileprivate var isDigit: Bool { ("0"..."9").contains(self) }

  fileprivate var isIdentifierStart: Bool {
    ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_"
  }

  fileprivate var isIdentifierPart: Bool { isIdentifierStart || isDigit }

  fileprivate var hexDigitValue: UInt32? {
    switch self {
    case "0"..."9": return value - 48
    case "a"..."f": return value - 87
    case "A"..."F": return value - 55
    default: return nil
    }
  }
}
