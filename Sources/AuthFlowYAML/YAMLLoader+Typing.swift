import AuthFlowCore

// YAML 1.1's implicit types of a plain scalar, as Yams' default constructors read them (what
// authflow's YAML was always typed by): the loader links no Yams (docs/architecture.md, "The YAML
// layer"), and `YAMLScalarTypingTests` checks every result against Yams' own constructors.
extension YAMLLoader {
  /// The typed value of a scalar: quoted and block scalars are strings; a plain scalar is typed
  /// as Yams' default (YAML 1.1) constructors type it — null, bool, int, float, else a string.
  static func typedValue(of text: String, isPlain: Bool) -> Value {
    guard isPlain, mayBeTyped(text) else { return .string(text) }
    // Text with a character past ASCII is a string. Yams compares it as Unicode text (canonical
    // equivalence, Foundation's `replacingOccurrences`, `lowercased()`), but none of its words
    // (`null`, `true`, `.inf`, …) has a non-ASCII spelling that way: the only non-ASCII characters
    // equivalent to ASCII are U+037E, U+1FEF and U+212A (`;`, `` ` ``, `K`), and the only one that
    // lowercases to ASCII is U+212A (`k`). Its number parsers — Swift's `Int(_:radix:)` and
    // `Double(_:)` — take ASCII only, and removing `_` leaves every other character in place.
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return .string(text) }
    switch text {
    case "", "~", "null", "Null", "NULL": return .null
    default: break
    }
    switch text.lowercased() {
    case "true", "yes", "on": return .bool(true)
    case "false", "no", "off": return .bool(false)
    default: break
    }
    let digits = String(decoding: text.utf8.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
    if let number = integer(digits) { return .int(number) }
    if let number = double(text: text, digits: digits) { return .double(number) }
    return .string(text)
  }

  /// Yams' `Int` constructor on ASCII text with its underscores removed, except that a base-60
  /// number past `Int` is not an int (Yams traps on its overflow).
  private static func integer(_ digits: String) -> Int? {
    if digits == "0" { return 0 }
    let negative = digits.hasPrefix("-")
    let hasSign = negative || digits.hasPrefix("+")
    let unsigned = digits.dropFirst(hasSign ? 1 : 0)
    for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where unsigned.hasPrefix(prefix) {
      return Int((negative ? "-" : "") + unsigned.dropFirst(prefix.count), radix: radix)
    }
    if unsigned.contains(":") { return sexagesimal(digits, as: Int.self) }
    return Int(digits)
  }

  /// Yams' `Double` constructor on ASCII text (`digits`: without its underscores).
  private static func double(text: String, digits: String) -> Double? {
    switch text.lowercased() {
    case ".inf", "+.inf": return .infinity
    case "-.inf": return -.infinity
    case ".nan": return .nan
    default: break
    }
    if digits.contains(":") { return sexagesimal(digits, as: Double.self) }
    return Double(digits)
  }

  /// `[+-]a:b:c…` in base 60 as Yams reads it: every part a number of `Number`'s own syntax, the
  /// last the units; nil when a part is not, or (for integers) on overflow.
  private static func sexagesimal<Number: SexagesimalNumber>(_ digits: String, as type: Number.Type) -> Number? {
    var text = Substring(digits)
    var sign: Number = 1
    if text.hasPrefix("-") {
      sign = -1
      text = text.dropFirst()
    } else if text.hasPrefix("+") {
      text = text.dropFirst()
    }
    var parts: [Number] = []
    for part in text.split(separator: ":", omittingEmptySubsequences: false) {
      guard let number = Number(parsing: part) else { return nil }
      parts.append(number)
    }
    var base: Number = 1
    var value: Number = 0
    for part in parts.reversed() {
      guard let product = part.multiplied(by: base), let sum = value.added(product),
        let nextBase = base.multiplied(by: 60)
      else { return nil }
      value = sum
      base = nextBase
    }
    return sign.multiplied(by: value)
  }

  /// Whether Yams' constructors could read `text` as anything but a string: null (`""`, `~`,
  /// `null`), a bool (`true`, `yes`, `on`, … in any case), an int or a float (which, underscores
  /// removed, start with a sign, a digit or a dot, or spell `inf`/`infinity`/`nan`/`snan`). Most scalars
  /// (keys, names, expressions) are not, and skip the constructors' costly string handling.
  static func mayBeTyped(_ text: String) -> Bool {
    guard let first = text.utf8.first(where: { $0 != UInt8(ascii: "_") }) else { return true }
    switch first {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "~"):
      return true
    case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "o"),
      UInt8(ascii: "O"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "n"), UInt8(ascii: "N"),
      UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "s"), UInt8(ascii: "S"):
      // The bytes other than underscores, ASCII letters lowercased (`| 0x20`): the first five, in
      // the order read, and how many there are — all the words below need.
      var letters: UInt64 = 0
      var count = 0
      for byte in text.utf8 where byte != UInt8(ascii: "_") {
        if count < 5 { letters |= UInt64(byte | 0x20) << (8 * count) }
        count += 1
      }
      if typedWords.contains(where: { $0.count == count && $0.letters == letters }) { return true }
      return typedPrefixes.contains { count >= $0.count && letters & $0.mask == $0.letters }
    default:
      return false
    }
  }

  /// Words a constructor reads as null or a bool, lowercased, packed as ``mayBeTyped(_:)`` packs.
  private static let typedWords = ["null", "true", "yes", "on", "false", "no", "off"].map(PackedWord.init)
  /// What a float may start with.
  private static let typedPrefixes = ["inf", "nan", "snan"].map(PackedWord.init)

  /// Up to five ASCII letters in the low bytes of a word, first letter lowest.
  private struct PackedWord {
    var letters: UInt64 = 0
    var mask: UInt64 = 0
    var count: Int

    init(_ word: String) {
      count = word.utf8.count
      for (index, byte) in word.utf8.enumerated() {
        letters |= UInt64(byte) << (8 * index)
        mask |= 0xFF << (8 * index)
      }
    }
  }
}

/// The arithmetic of a base-60 number, checked where the type can overflow.
private protocol SexagesimalNumber: ExpressibleByIntegerLiteral {
  init?(parsing text: Substring)
  func multiplied(by other: Self) -> Self?
  func added(_ other: Self) -> Self?
}

extension Int: SexagesimalNumber {
  init?(parsing text: Substring) { self.init(text, radix: 10) }
  func multiplied(by other: Int) -> Int? {
    let (result, overflow) = multipliedReportingOverflow(by: other)
    return overflow ? nil : result
  }
  func added(_ other: Int) -> Int? {
    let (result, overflow) = addingReportingOverflow(other)
    return overflow ? nil : result
  }
}

extension Double: SexagesimalNumber {
  init?(parsing text: Substring) { self.init(String(text)) }
  func multiplied(by other: Double) -> Double? { self * other }
  func added(_ other: Double) -> Double? { self + other }
}
