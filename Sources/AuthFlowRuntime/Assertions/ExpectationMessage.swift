import AuthFlowCore
import AuthFlowScenario

/// The message of a failed `expect` matcher: what was checked, what was wanted and found, and
/// when the result knows it, why (the ID-token check that failed, not only `false`).
enum ExpectationMessage {
  /// `expected id_token_valid to equal true, found false: <reason>`, as the matcher's own file
  /// words it (`Matcher.Kind.failureMessage`). Texts are already redacted.
  static func failed(
    path: String, kind: Matcher.Kind, verb: MatcherFailure, expected: String, actual: String, reason: String?
  ) -> String {
    kind.failureMessage(path: path, failure: verb, expected: expected, actual: actual, reason: reason)
  }

  /// Why the value at `path` is what it is, when the result says so: an ID token's validity (and
  /// its signature's) comes with `id_token_error`, the failed check in PROTOCOL §5's words.
  static func reason(for path: [String], in result: Value) -> String? {
    let explained: Set<[String]> = [["id_token_valid"], ["id_token", "signature_valid"]]
    guard explained.contains(path), let error = result.member("id_token_error")?.unwrapped.stringValue else {
      return nil
    }
    let check = result.member("check")?.unwrapped.stringValue.map { "the '\($0)' check failed — " } ?? ""
    return check + error
  }
}
