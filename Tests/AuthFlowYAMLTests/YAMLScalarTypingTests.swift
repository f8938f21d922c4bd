import AuthFlowCore
import Testing

@testable import AuthFlowYAML

/// Plain scalars are typed as Yams' constructors type them; the fast path that skips the
/// constructors for most text must not change a single result.
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
}
