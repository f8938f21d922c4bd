import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// Every matcher's own examples, from the registry: each matcher has one that holds and one that
/// fails, every example holds or fails as it says (with its message), and its operand parses. A
/// matcher added without a failing example fails here.
@Suite struct MatcherExampleTests {
  @Test(arguments: MatcherRegistry.kinds) func everyMatcherHasAPassingAndAFailingExample(_ kind: Matcher.Kind) {
    #expect(kind.rule.examples.contains { $0.message == nil }, "\(kind) has no example that holds")
    #expect(kind.rule.examples.contains { $0.message != nil }, "\(kind) has no failing example")
  }

  @Test(arguments: MatcherRegistry.kinds) func examplesHoldOrFailWithTheirMessage(_ kind: Matcher.Kind) {
    for example in kind.rule.examples {
      let verb = kind.failure(expected: example.operand, actual: example.actual)
      guard let message = example.message else {
        #expect(verb == nil, "\(kind): \(example.operand.jsonText()) should hold for \(example.actual.jsonText())")
        continue
      }
      let found = verb.map {
        kind.failureMessage(
          path: "value", failure: $0, expected: example.operand.jsonText(), actual: example.actual.jsonText())
      }
      #expect(found == message, "\(kind)")
    }
  }

  /// Each example's operand, written as YAML (JSON is YAML's flow style), is one the parser takes.
  @Test(arguments: MatcherRegistry.kinds) func exampleOperandsParse(_ kind: Matcher.Kind) {
    for example in kind.rule.examples {
      let yaml = "scenario: x\nsteps:\n  - logout:\n    expect:\n      a: { \(kind): \(example.operand.jsonText()) }"
      let found = diagnostics(MarkedText(yaml))
      #expect(found.isEmpty, "\(kind): \(found.map(\.message))")
    }
  }

  /// A docs row that the generated table can carry: text in both cells, no cell separator.
  @Test(arguments: MatcherRegistry.kinds) func theDocsRowFitsTheTable(_ kind: Matcher.Kind) {
    #expect(kind.rule.documentedName.contains("`\(kind)`"))
    #expect(!kind.rule.documentation.isEmpty)
    #expect(!kind.rule.documentation.contains("|") && !kind.rule.documentation.contains("\n"), "\(kind)")
  }

  @Test func aNameOutsideTheRegistryIsRefused() {
    #expect(Matcher.Kind(rawValue: "nope") == nil)
    #expect(Matcher.Kind(rawValue: "not_contains") == .notContains)
    let found = diagnostics(MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n      a: { nope: 1 }"))
    #expect(found.map(\.message) == ["unknown matcher 'nope'"])
  }

  /// An operand computed at run time that the matcher cannot use: the message says why after the
  /// operand (the parser refuses such literals, so these are not examples).
  @Test func anUnusableOperandIsNotedAfterIt() throws {
    let failure = try #require(Matcher.Kind.oneOf.failure(expected: 3, actual: "a"))
    #expect(
      Matcher.Kind.oneOf.failureMessage(path: "value", failure: failure, expected: "3", actual: #""a""#)
        == #"expected value to be one of 3 (one_of needs a list), found "a""#)
    #expect(
      Matcher.Kind.matches.failure(expected: 3, actual: "a")
        == MatcherFailure("to match", note: "the pattern is not a string"))
    #expect(
      Matcher.Kind.notMatches.failure(expected: "(", actual: "a")?.note
        == "the pattern is not a valid regular expression")
    #expect(Matcher.Kind.type.failure(expected: "integer", actual: 3)?.note?.hasPrefix("not a type name") == true)
    #expect(Matcher.Kind.within.failure(expected: ["of": 1], actual: 1)?.note?.hasPrefix("within needs") == true)
  }

  /// The evaluation treats an absent value and null alike where the docs say so.
  @Test func anAbsentValueFailsThePositiveMatchersAndHoldsTheNegatedOnes() {
    #expect(Matcher.Kind.exists.failure(expected: true, actual: nil) == "to exist")
    #expect(Matcher.Kind.contains.failure(expected: "a", actual: nil) == "to contain")
    #expect(Matcher.Kind.notContains.failure(expected: "a", actual: nil) == nil)
    #expect(Matcher.Kind.notEquals.failure(expected: "a", actual: nil) == nil)
    #expect(Matcher.Kind.notMatches.failure(expected: "a", actual: nil) == nil)
    #expect(Matcher.Kind.startsWith.failure(expected: "a", actual: nil) == "to start with")
    #expect(Matcher.Kind.notStartsWith.failure(expected: "a", actual: nil) == nil)
  }

  /// An ordering matcher on an absent value says what it wanted in its own words.
  @Test func anOrderingOnAnAbsentValueUsesItsOwnVerb() throws {
    let expectations: [(Matcher.Kind, String)] = [
      (.gt, "to be greater than"), (.gte, "to be at least"), (.lt, "to be less than"), (.lte, "to be at most"),
    ]
    for (kind, verb) in expectations {
      let failure = try #require(kind.failure(expected: 0, actual: nil))
      #expect(failure == MatcherFailure(verb), "\(kind)")
      #expect(
        kind.failureMessage(path: "expires_in", failure: failure, expected: "0", actual: "nothing")
          == "expected expires_in \(verb) 0, found nothing")
    }
  }
}
