import AuthFlowExpression
import Testing

/// `RegexPattern.firstMatch`: the leftmost match and its groups, chosen as RE2 and Perl choose
/// (the answers below are what Python's `re.search` gives for the same pattern and text).
@Suite struct RegexCaptureTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var pattern: String
    var text: String
    var match: String?
    var groups: [String?] = []
    var testDescription: String { "/\(pattern)/ on '\(text)'" }
  }

  static let cases: [Case] = [
    Case(pattern: #"\d{6}"#, text: "Your code is 123456.", match: "123456"),
    Case(
      pattern: #"code is:? ([0-9]{4,8})"#, text: "Your code is: 0042 — thanks", match: "code is: 0042", groups: ["0042"]
    ),
    Case(pattern: "a+", text: "baaab", match: "aaa"),
    Case(pattern: "a+?", text: "baaab", match: "a"),
    Case(
      pattern: #"href="(.*?)""#, text: #"<a href="https://x/1">1</a><a href="https://x/2">"#,
      match: #"href="https://x/1""#, groups: ["https://x/1"]),
    Case(
      pattern: #"href="(.*)""#, text: #"<a href="1"><a href="2">"#, match: #"href="1"><a href="2""#,
      groups: [#"1"><a href="2"#]),
    Case(pattern: "(a)|(b)", text: "xb", match: "b", groups: [nil, "b"]),
    Case(pattern: "(?:ab|a)(c?)", text: "abc", match: "abc", groups: ["c"]),
    Case(pattern: "(?P<code>[A-Z0-9]{6})", text: "code: K7GZQ2 now", match: "K7GZQ2", groups: ["K7GZQ2"]),
    Case(pattern: "(?i)CODE ([a-z]+)", text: "your code abc", match: "code abc", groups: ["abc"]),
    Case(pattern: "^$", text: "", match: "", groups: []),
    Case(pattern: "(?m)^b(.)$", text: "a\nbc\nd", match: "bc", groups: ["c"]),
    Case(pattern: #"\bcode\b"#, text: "barcode, code", match: "code"),
    Case(pattern: "x", text: "abc", match: nil),
    Case(
      pattern: #"ticket=([^&\s]+)"#, text: "https://t/lo?ticket=AbC-1&x=2", match: "ticket=AbC-1", groups: ["AbC-1"]),
    Case(pattern: "é(.)", text: "caféx", match: "éx", groups: ["x"]),
    // django-allauth's code, alone on its line of a CRLF message (conformance/allauth/FLOWS.md).
    Case(
      pattern: #"(?m)^([BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4})\r?$"#,
      text: "Your code is listed below.\r\n\r\nQFNC-DJLK\r\n\r\nThank you", match: "QFNC-DJLK\r",
      groups: ["QFNC-DJLK"]),
  ]

  @Test(arguments: cases)
  func knownAnswers(_ test: Case) throws {
    let pattern = try RegexPattern(test.pattern)
    let found = pattern.firstMatch(in: test.text)
    #expect(found?.text == test.match)
    if test.match != nil {
      #expect(found?.groups == test.groups)
      #expect(pattern.matches(test.text))
    } else {
      #expect(!pattern.matches(test.text))
    }
  }

  /// The pattern that makes backtracking engines run for ever finds its answer at once, with groups.
  @Test func capturesStayLinear() throws {
    let pattern = try RegexPattern("^(a+)+$")
    let text = String(repeating: "a", count: 20_000) + "b"
    #expect(pattern.firstMatch(in: text) == nil)
    let matching = String(repeating: "a", count: 20_000)
    #expect(pattern.firstMatch(in: matching)?.text.count == 20_000)
  }

  @Test func groupZeroIsTheWholeMatch() throws {
    let match = try #require(try RegexPattern("b(c)").firstMatch(in: "abcd"))
    #expect(match.group(0) == "bc")
    #expect(match.group(1) == "c")
    #expect(match.group(2) == nil)
  }

  /// The capturing search and the plain one agree on whether there is a match, for patterns built
  /// from anchors, groups, alternations and repetitions over a small alphabet (a seeded walk).
  @Test func captureSearchAgreesWithMatches() throws {
    let atoms = ["a", "b", "\\n", ".", "[ab]", "^", "$", "(?m)^", "(a|b)", "(a*)", "(?:ab)?", "b+?", "\\b", "(.)"]
    let texts = ["", "a", "b", "ab", "ba", "aab", "a\nb", "b\na\n", "abab", "bbba", "x a b", "\n"]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<2_000 {
      let pattern = (0..<(1 + next(4))).map { _ in atoms[next(atoms.count)] }.joined()
      guard let compiled = try? RegexPattern(pattern) else { continue }
      for text in texts {
        #expect(
          compiled.matches(text) == (compiled.firstMatch(in: text) != nil), "/\(pattern)/ on \(text.debugDescription)")
      }
    }
  }
}
