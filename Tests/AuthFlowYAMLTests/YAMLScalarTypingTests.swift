import AuthFlowCore
import AuthFlowTestSupport
import Foundation
import Testing
import Yams

@testable import AuthFlowYAML

/// Plain scalars are typed as Yams' constructors type them; the fast path that skips the
/// constructors for most text, and the loader's own typing (which links no Yams: ASCII text typed
/// without Foundation, any other text a string), must not change a single result — except where
/// Yams traps (a base-60 int past `Int`). Yams is the oracle here, linked by the tests only.
@Suite struct YAMLScalarTypingTests {
  func value(_ scalar: String) -> Value? {
    guard case .mapping(let pairs, _)? = YAMLLoader.load("k: \(scalar)\n", file: "t.yaml").0,
      case .scalar(let value)? = pairs.first?.value
    else { return nil }
    return value.value
  }

  @Test(arguments: [
    ("yes", Value.bool(true)), ("Off", .bool(false)), ("TRUE", .bool(true)), ("no", .bool(false)),
    ("~", .null), ("null", .null), ("NULL", .null), ("0x1F", .int(31)), ("1_000", .int(1000)), ("_5", .int(5)),
    ("-7", .int(-7)), ("0o17", .int(15)), ("1:30", .int(90)), (".5", .double(0.5)), ("+1.5e3", .double(1500)),
    ("inf", .double(.infinity)), ("-.inf", .double(-.infinity)), ("Infinity", .double(.infinity)),
    ("steps", .string("steps")), ("nonce", .string("nonce")), ("sso", .string("sso")),
    ("${{ vars.x }}", .string("${{ vars.x }}")), ("infra", .string("infra")), ("snack", .string("snack")),
    ("tru", .string("tru")), ("only", .string("only")),
  ])
  func plainScalarsAreTypedAsYamsTypesThem(scalar: String, expected: Value) {
    #expect(value(scalar) == expected)
  }

  @Test func nanSpellingsAreDoubles() {
    for scalar in [".nan", "nan", "snan", "NaN"] {
      guard case .double(let number)? = value(scalar) else {
        Issue.record("\(scalar) is \(String(describing: value(scalar)))")
        continue
      }
      #expect(number.isNaN)
    }
  }

  @Test func quotedScalarsStayStrings() {
    #expect(value("'yes'") == .string("yes"))
    #expect(value("\"12\"") == .string("12"))
  }

  @Test func theFastPathLetsEveryPossiblyTypedScalarThrough() {
    for text in ["", "_", "~", "0", "+", "-", ".", "true", "Yes", "oN", "OFF", "null", "inf", "_nan", "sNaN", "n_o"] {
      #expect(YAMLLoader.mayBeTyped(text), "\(text)")
    }
    for text in ["steps", "id", "web_auth", "expect", "scenario", "login", "alice@example.com", "é"] {
      #expect(!YAMLLoader.mayBeTyped(text), "\(text)")
    }
  }

  /// Yams' constructors, as the loader called them before.
  static func yamsValue(_ text: String) -> Value {
    let typed = Node.scalar(Node.Scalar(text, Tag(.implicit, .default, .default), .plain))
    if typed.null != nil { return .null }
    if let flag = typed.bool { return .bool(flag) }
    if let number = typed.int { return .int(number) }
    if let number = typed.float { return .double(number) }
    return .string(text)
  }

  static func same(_ lhs: Value, _ rhs: Value) -> Bool {
    if case .double(let left) = lhs, case .double(let right) = rhs, left.isNaN, right.isNaN { return true }
    return lhs == rhs
  }

  /// Every string of up to four characters over the characters that matter to the constructors,
  /// and many longer random ones, typed as Yams types them.
  @Test func typingMatchesYamsConstructors() {
    let alphabet: [String] = [
      "0", "1", "7", "9", "_", "+", "-", ".", ":", "x", "b", "o", "e", "E", "i", "n", "f", "a", "N", "I", "F", "t",
      "r", "u", "y", "s", "l", "~", "p", " ", "é",
    ]
    var texts: [String] = [""]
    var frontier: [String] = [""]
    for _ in 0..<3 {
      frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
      texts += frontier
    }
    var random = SplitMix64(seed: 7)
    let words = [
      "0x", "0b", "0o", "0", "1_0", "60", "59", ":", "inf", "Infinity", "nan", ".inf", ".NaN", "e+3", "true", "Off",
      "null", "~", "9223372036854775807", "-", "+", "_", ".", "1e308", "e\u{301}",
    ]
    for _ in 0..<60_000 {
      texts.append((0..<(1 + random.below(5))).map { _ in random.pick(words + alphabet) }.joined())
    }
    var compared = 0
    for text in texts where !YamsTrap.sexagesimalOverflows(text) {
      let typed = YAMLLoader.typedValue(of: text, isPlain: true)
      let expected = Self.yamsValue(text)
      compared += 1
      if !Self.same(typed, expected) {
        Issue.record("\(text.debugDescription): \(typed), Yams: \(expected)")
        return
      }
    }
    #expect(compared > 80_000)
  }

  /// Text past ASCII is always a string to the loader, without asking Yams: so it must be to Yams.
  /// Every scalar of the Basic Multilingual Plane (and a few beyond) alone, after a digit and
  /// completing a bool, and spellings that Unicode folds, decomposes or lowercases towards ASCII.
  @Test func textPastASCIIIsAStringAsToYams() {
    var texts = [
      "\u{212A}", "\u{212B}", "\u{0130}nf", ".\u{0131}nf", "\u{FF54}\u{FF52}\u{FF55}\u{FF45}", "\u{FF11}",
      "\u{0661}\u{0662}", "\u{2212}1", "-\u{301}1", "_\u{301}1", "1_\u{301}", "0x\u{FF11}", "1\u{00A0}",
      "TRUE\u{200B}", "\u{FEFF}1", "nul\u{006C}\u{0301}", "1:3\u{0665}", "1\u{2236}30", ".\u{0456}nf", "e\u{301}",
      "1\u{037E}", "\u{1FEF}1", "\u{1D7CF}", "1\u{E0001}", "\u{1F600}",
    ]
    for value in UInt32(0x80)...0xFFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      texts += ["\(scalar)", "1\(scalar)", "tru\(scalar)"]
    }
    var compared = 0
    for text in texts {
      let typed = YAMLLoader.typedValue(of: text, isPlain: true)
      let expected = Self.yamsValue(text)
      compared += 1
      if typed != .string(text) || !Self.same(typed, expected) {
        Issue.record("\(text.debugDescription): \(typed), Yams: \(expected)")
        return
      }
    }
    #expect(compared > 190_000)
  }

  /// Yams traps on a base-60 int past `Int` (11 parts, or a large first part): such a scalar is
  /// read as the float it spells instead of stopping the process.
  @Test func aBase60NumberPastIntIsAFloatNotACrash() {
    var elevenOnes = 0.0
    var base = 1.0
    for _ in 0..<11 {
      elevenOnes += base
      base *= 60
    }
    #expect(value("1:1:1:1:1:1:1:1:1:1:1") == .double(elevenOnes))
    #expect(value("9223372036854775807:59") == .double(59 + 9_223_372_036_854_775_808 * 60.0))
    #expect(value("-+0:-9223372036854775808") == .double(9_223_372_036_854_775_808))
    for text in ["1:1:1:1:1:1:1:1:1:1:1", "9223372036854775807:59", "-+0:-9223372036854775808"] {
      #expect(YamsTrap.sexagesimalOverflows(text), "\(text)")
    }
    #expect(!YamsTrap.sexagesimalOverflows("1:1:1:1:1:1:1:1:1:1"))
    #expect(value("1:1:1:1:1:1:1:1:1:1") == .int(10_248_504_406_779_661))
  }
}

/// Which scalars Yams' `Int` constructor traps on: a base-60 number whose arithmetic overflows.
enum YamsTrap {
  static func sexagesimalOverflows(_ text: String) -> Bool {
    guard text.utf8.allSatisfy({ $0 < 0x80 }), YAMLLoader.mayBeTyped(text) else { return false }
    let digits = text.replacingOccurrences(of: "_", with: "")
    let hasSign = digits.hasPrefix("-") || digits.hasPrefix("+")
    let unsigned = digits.dropFirst(hasSign ? 1 : 0)
    if digits == "0" || ["0x", "0b", "0o", "0"].contains(where: { unsigned.hasPrefix($0) }) { return false }
    guard unsigned.contains(":") else { return false }
    let parts = unsigned.components(separatedBy: ":").map { Int($0, radix: 10) }
    guard parts.allSatisfy({ $0 != nil }) else { return false }
    var base = 1
    var value = 0
    for part in parts.reversed() {
      let (product, overflow1) = (part ?? 0).multipliedReportingOverflow(by: base)
      let (sum, overflow2) = value.addingReportingOverflow(product)
      let (next, overflow3) = base.multipliedReportingOverflow(by: 60)
      if overflow1 || overflow2 || overflow3 { return true }
      value = sum
      base = next
    }
    return digits.hasPrefix("-") && value == .min
  }
}
