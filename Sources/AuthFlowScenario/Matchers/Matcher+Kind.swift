public import AuthFlowCore

extension Matcher {
  /// A matcher of the language, by name: one of `MatcherRegistry.kinds`. Each matcher's file
  /// declares its constant (`Matcher.Kind.contains`) beside its rule.
  public struct Kind: Sendable, Hashable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// The key written under an `expect` path.
    public let rawValue: String
    /// What the matcher takes, how it holds and how it fails.
    public let rule: any MatcherRule

    /// The registered matcher named `rawValue`; nil for any other name.
    public init?(rawValue: String) {
      guard let kind = MatcherRegistry.kind(named: rawValue) else { return nil }
      self = kind
    }

    /// A kind for `rule`: only the matchers' own files make these.
    init(_ rule: any MatcherRule) {
      self.rawValue = rule.name
      self.rule = rule
    }

    /// Every matcher, sorted by name.
    public static var allCases: [Kind] { MatcherRegistry.kinds }

    public var description: String { rawValue }

    public static func == (left: Kind, right: Kind) -> Bool { left.rawValue == right.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Nil when the matcher holds for `actual` (nil: nothing at the path); otherwise how its
    /// failure reads.
    public func failure(expected: Value, actual: Value?) -> MatcherFailure? {
      rule.failure(expected: expected, actual: actual)
    }

    /// The message of a failed matcher: `expected <path> <verb> <expected> (<note>), found
    /// <actual>`, and `: <reason>` when the result says why. `exists` shows no operand (`expected
    /// id_token to exist, found nothing …`). The texts are already redacted.
    public func failureMessage(
      path: String, failure: MatcherFailure, expected: String, actual: String, reason: String? = nil
    ) -> String {
      var wanted = rule.showsOperand ? "\(failure.verb) \(expected)" : failure.verb
      if let note = failure.note { wanted += " (\(note))" }
      let because = reason.map { ": \($0)" } ?? ""
      return "expected \(path) \(wanted), found \(actual)\(because)"
    }
  }
}
