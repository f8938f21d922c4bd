public import AuthFlowCore

/// One matcher of the `expect:` language, described in one file: its name, the operand it takes,
/// when it holds, how its failure reads, its row in the docs' table, and examples that run as
/// tests.
///
/// Adding a matcher is writing one file in the `Matchers/` folder of its kind (`Equality/`,
/// `Text/`, `Ordering/`, `Shape/`), named after the matcher's key (`not_one_of` →
/// `NotOneOfMatcher.swift`): a conforming type with a `Matcher.Kind` constant beside it. List that
/// kind in `MatcherRegistry.kinds` (sorted by name), and regenerate the docs table (`authflow
/// docs`) and the JSON Schema (`authflow schema --output schemas/scenario.schema.json`);
/// MatcherExampleTests and MatcherExampleRunTests run its examples.
public protocol MatcherRule: Sendable {
  /// The key written under an `expect` path, e.g. `not_contains`.
  var name: String { get }
  /// What the operand must be: the parser checks literal operands, the JSON Schema lists it.
  var operand: MatcherOperand { get }
  /// The docs table's first cell; by default the name in backticks.
  var documentedName: String { get }
  /// The docs table's second cell, completing "holds when the actual value…".
  var documentation: String { get }
  /// Whether the failure message shows the expected operand (`exists` reads "to exist", not
  /// "to exist true").
  var showsOperand: Bool { get }
  /// At least one example that holds and one that fails; the tests run every one.
  var examples: [MatcherExample] { get }
  /// The expected operand as a report's `expected` field shows it, `show` rendering a value (masked
  /// as the run masks): by default the value itself; `exists` wants a presence, not the word
  /// "true" (`present`, `absent`).
  func expectedText(_ operand: Value, show: (Value) -> String) -> String
  /// Whether the matcher is the negation of another (`not_equals`): it holds wherever that one
  /// does not, so against an operand that read nothing (`null` from a missing value) it holds
  /// whatever the answer — the interpreter refuses such an operand.
  var isNegation: Bool { get }
  /// Nil when the matcher holds for `actual` (nil: nothing at the path); otherwise how the
  /// failure message reads ("to contain"; "to match", noting "the pattern is not a string").
  func failure(expected: Value, actual: Value?) -> MatcherFailure?
}

/// How a matcher's failure reads: the verb phrase before the expected operand (`to contain`), and
/// a note after it when the matcher could not decide (`the pattern is not a string`).
public struct MatcherFailure: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  public var verb: String
  public var note: String?

  public init(_ verb: String, note: String? = nil) {
    self.verb = verb
    self.note = note
  }

  public init(stringLiteral verb: String) {
    self.init(verb)
  }

  public var description: String { verb + (note.map { " (\($0))" } ?? "") }
}

extension MatcherRule {
  public var documentedName: String { "`\(name)`" }
  public var showsOperand: Bool { true }
  public var isNegation: Bool { false }
  public func expectedText(_ operand: Value, show: (Value) -> String) -> String { show(operand) }
}

/// An example of one matcher: an operand and an actual value, and the failure message it gives at
/// the path `value` (nil: the matcher holds). Values are shown as JSON, as a run shows them.
public struct MatcherExample: Sendable {
  public var operand: Value
  public var actual: Value
  /// `expected value to contain "x", found "abc"`; nil for an example that holds.
  public var message: String?

  /// An example for which the matcher holds.
  public static func holds(_ operand: Value, for actual: Value) -> MatcherExample {
    MatcherExample(operand: operand, actual: actual, message: nil)
  }

  /// An example for which the matcher fails with `message`.
  public static func fails(_ operand: Value, for actual: Value, with message: String) -> MatcherExample {
    MatcherExample(operand: operand, actual: actual, message: message)
  }
}
