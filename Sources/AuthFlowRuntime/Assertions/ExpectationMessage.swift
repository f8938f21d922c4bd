import AuthFlowCore
import AuthFlowScenario

/// Why a failed `expect` matcher's value is what it is, when the result knows (the ID-token check
/// that failed, not only `false`); the message itself is the matcher's own (`Matcher.Kind.failureMessage`).
enum ExpectationMessage {
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
