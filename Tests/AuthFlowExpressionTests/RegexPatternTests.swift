import AuthFlowCore
import AuthFlowExpression
import Foundation
import Testing

/// The linear-time regex engine behind `matches()` and the `matches` matcher: known answers (as
/// RE2 gives them), the constructs it refuses, and the patterns that make backtracking engines hang.
@Suite struct RegexPatternTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var pattern: String
    var text: String
    var matches: Bool
    var testDescription: String { "/\(pattern)/ on '\(text)' → \(matches)" }
  }

  static let cases: [Case] = [
    // Literals, search semantics, anchors.
    Case(pattern: "abc", text: "xxabcxx", matches: true),
    Case(pattern: "abc", text: "ab", matches: false),
    Case(pattern: "^abc", text: "xabc", matches: false),
    Case(pattern: "^abc$", text: "abc", matches: true),
    Case(pattern: "abc$", text: "abc\n", matches: false),
    Case(pattern: "", text: "", matches: true),
    Case(pattern: "^$", text: "", matches: true),
    Case(pattern: "^$", text: "a", matches: false),
    Case(pattern: #"\Aab\z"#, text: "ab", matches: true),
    // Dot, classes, escapes.
    Case(pattern: "a.c", text: "abc", matches: true),
    Case(pattern: "a.c", text: "a\nc", matches: false),
    Case(pattern: "(?s)a.c", text: "a\nc", matches: true),
    Case(pattern: "^[a-c]+$", text: "abcabc", matches: true),
    Case(pattern: "^[a-c]+$", text: "abcd", matches: false),
    Case(pattern: "^[^a-c]+$", text: "xyz", matches: true),
    Case(pattern: "^[^a-c]+$", text: "xaz", matches: false),
    Case(pattern: "^[]a]+$", text: "]a]", matches: true),
    Case(pattern: "^[a-]+$", text: "a-a", matches: true),
    Case(pattern: #"^\d{3}-\d{4}$"#, text: "555-1234", matches: true),
    Case(pattern: #"^\d{3}-\d{4}$"#, text: "555-123", matches: false),
    Case(pattern: #"^\w+$"#, text: "auth0_user", matches: true),
    Case(pattern: #"^\w+$"#, text: "auth0|user", matches: false),
    Case(pattern: #"^\S+\s\S+$"#, text: "Bearer abc", matches: true),
    Case(pattern: #"^\D+$"#, text: "abc", matches: true),
    Case(pattern: #"^\W$"#, text: "|", matches: true),
    Case(pattern: #"^[\d\s]+$"#, text: "1 2 3", matches: true),
    Case(pattern: "^[[:alpha:]]+$", text: "Hello", matches: true),
    Case(pattern: "^[[:xdigit:]]+$", text: "0fA9", matches: true),
    Case(pattern: #"^auth0\|[0-9a-f]+$"#, text: "auth0|64a1f", matches: true),
    Case(pattern: #"^a\.b$"#, text: "a.b", matches: true),
    Case(pattern: #"^a\.b$"#, text: "axb", matches: false),
    Case(pattern: #"^\x41\x{42}$"#, text: "AB", matches: true),
    Case(pattern: #"^a\tb$"#, text: "a\tb", matches: true),
    Case(pattern: #"\bword\b"#, text: "a word here", matches: true),
    Case(pattern: #"\bword\b"#, text: "swordfish", matches: false),
    Case(pattern: #"\Bor\B"#, text: "or", matches: false),
    Case(pattern: #"\Bor\B"#, text: "word", matches: true),
    // Groups, alternation, quantifiers.
    Case(pattern: "^(ab|cd)+$", text: "abcdab", matches: true),
    Case(pattern: "^(ab|cd)+$", text: "abc", matches: false),
    Case(pattern: "^(?:a|b|c)$", text: "c", matches: true),
    Case(pattern: "^(?<name>x)y$", text: "xy", matches: true),
    Case(pattern: "^(?P<name>x)y$", text: "xy", matches: true),
    Case(pattern: "^a*$", text: "", matches: true),
    Case(pattern: "^a+$", text: "", matches: false),
    Case(pattern: "^ab?c$", text: "ac", matches: true),
    Case(pattern: "^ab?c$", text: "abbc", matches: false),
    Case(pattern: "^a{3}$", text: "aaa", matches: true),
    Case(pattern: "^a{3}$", text: "aaaa", matches: false),
    Case(pattern: "^a{2,}$", text: "aaaaa", matches: true),
    Case(pattern: "^a{2,}$", text: "a", matches: false),
    Case(pattern: "^a{2,3}$", text: "aaa", matches: true),
    Case(pattern: "^a{2,3}$", text: "aaaa", matches: false),
    Case(pattern: "^a{,3}$", text: "a{,3}", matches: true),
    Case(pattern: "^x{y}$", text: "x{y}", matches: true),
    Case(pattern: "^a*?b+?$", text: "aab", matches: true),
    Case(pattern: "^(a*)*$", text: "aaaa", matches: true),
    Case(pattern: "^(a|)+$", text: "aaa", matches: true),
    Case(pattern: "a|b|", text: "zzz", matches: true),
    // Flags.
    Case(pattern: "bearer", text: "Bearer", matches: false),
    Case(pattern: "(?i)bearer", text: "Bearer", matches: true),
    Case(pattern: "(?i)[a-z]+", text: "XYZ", matches: true),
    Case(pattern: "a(?i:b)c", text: "aBc", matches: true),
    Case(pattern: "a(?i:b)c", text: "aBC", matches: false),
    Case(pattern: "(?i)é", text: "É", matches: true),
    Case(pattern: "^b$", text: "a\nb\nc", matches: false),
    Case(pattern: "(?m)^b$", text: "a\nb\nc", matches: true),
    // Unicode scalars.
    Case(pattern: "^.$", text: "é", matches: true),
    Case(pattern: "^[à-ü]+$", text: "éü", matches: true),
    Case(pattern: "^🙂+$", text: "🙂🙂", matches: true),
  ]

  @Test(arguments: cases)
  func knownAnswer(_ example: Case) throws {
    let pattern = try RegexPattern(example.pattern)
    #expect(pattern.matches(example.text) == example.matches)
  }

  @Test(arguments: [
    (#"(a)\1"#, "a backreference is not supported"),
    (#"(?P<x>a)(?P=x)"#, "a backreference is not supported"),
    (#"\k<x>"#, "a backreference is not supported"),
    ("a(?=b)", "lookahead (?=…) is not supported"),
    ("a(?!b)", "negative lookahead (?!…) is not supported"),
    ("(?<=a)b", "lookbehind (?<=…) is not supported"),
    ("(?<!a)b", "negative lookbehind (?<!…) is not supported"),
    ("(?>a+)b", "an atomic group (?>…) is not supported"),
    ("a++", "a possessive quantifier is not supported"),
    (#"\p{L}"#, "a Unicode property class"),
    ("(ab", "missing ')'"),
    ("ab)", "unbalanced parenthesis"),
    ("[ab", "missing ']'"),
    ("*a", "nothing to repeat"),
    ("a**", "nothing to repeat"),
    ("[z-a]", "invalid character range"),
    ("a{1001}", "invalid counted repetition"),
    ("a{3,2}", "invalid counted repetition"),
    (#"\q"#, "unknown escape"),
    ("(?x)a", "unknown flag 'x'"),
    ("[[:nope:]]", "unknown character class"),
    ("a\\", "ends with a lone"),
  ])
  func refusesWithAReason(pattern: String, message: String) {
    #expect {
      _ = try RegexPattern(pattern)
    } throws: { error in
      (error as? RegexSyntaxError)?.message.contains(message) == true
    }
  }

  @Test func patternAndProgramSizesAreBounded() {
    #expect(throws: RegexSyntaxError.self) { try RegexPattern(String(repeating: "a", count: 1_001)) }
    #expect(throws: RegexSyntaxError.self) { try RegexPattern("((a{1000}){1000}){1000}") }
    #expect(throws: RegexSyntaxError.self) {
      try RegexPattern(String(repeating: "(", count: 200) + String(repeating: ")", count: 200))
    }
  }

  @Test func textLengthIsBounded() throws {
    let pattern = try RegexPattern("a")
    #expect(pattern.search(String(repeating: "b", count: InputLimits.regexInputLength + 1)) == .textTooLong)
  }

  /// Patterns that take exponential time in a backtracking engine finish at once here.
  @Test(arguments: [
    ("^(a+)+$", String(repeating: "a", count: 40) + "!"),
    ("^(a|a)*$", String(repeating: "a", count: 40) + "!"),
    ("^(a|aa)+$", String(repeating: "a", count: 60) + "!"),
    ("(x+x+)+y", String(repeating: "x", count: 5_000)),
    ("^(\\w+\\s?)*$", String(repeating: "word ", count: 2_000) + "!"),
    ("(.*a){20}", String(repeating: "a", count: 19)),
  ])
  func catastrophicPatternsFinishFast(pattern: String, text: String) throws {
    let compiled = try RegexPattern(pattern)
    let start = ContinuousClock.now
    #expect(!compiled.matches(text))
    // A backtracking engine takes hours here; 10 s allows for a busy machine.
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  @Test func aCancelledSearchStops() async throws {
    let compiled = try RegexPattern("(a|b|c|d)*x")
    let text = String(repeating: "abcd", count: 200_000)
    let task = Task { compiled.search(text) }
    task.cancel()
    #expect(await task.value == .cancelled)
  }

  @Test func matchesFunctionUsesTheEngine() throws {
    let slow = "matches('" + String(repeating: "a", count: 40) + "!', '^(a+)+$')"
    let start = ContinuousClock.now
    #expect(try Expr.parse(slow).get().evaluate(in: sampleContext) == .bool(false))
    // A backtracking engine takes hours here; 10 s allows for a busy machine.
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  @Test func unsupportedSyntaxIsACheckError() throws {
    let parsed = try Expr.parse("matches('x', '(a)\\\\1')").get()
    let errors = parsed.check(functions: .standard, roots: EvaluationContext.standardRoots)
    #expect(errors.contains { "\($0.message) \($0.hint ?? "")".contains("backreference") }, "\(errors)")
  }
}
