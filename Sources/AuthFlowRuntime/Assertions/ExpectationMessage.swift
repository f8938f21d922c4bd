import AuthFlowCore
import AuthFlowScenario

/// Why a failed `expect` matcher's value is what it is, when the result knows (the ID-token check
/// that failed, not only `false`; the tenant's description of the error it answered); the message
/// itself is the matcher's own (`Matcher.Kind.failureMessage`).
enum ExpectationMessage {
  /// Why the value at `path` is what it is, when the result says so: an ID token's validity (and
  /// its signature's) comes with `id_token_error`, the failed check in the ID-token rules' words;
  /// an error's code or status with the tenant's `error_description` (`found "invalid_request":
  /// the tenant said "Missing required parameter: code"`), which says what the code alone does not.
  static func reason(for path: [String], in result: Value) -> String? {
    if Self.errorIdentity.contains(path) {
      guard let description = result.member(ResultField.error.name)?.member("description")?.stringValue,
        !description.isEmpty
      else { return nil }
      return Self.tenantSaid(description)
    }
    let explained: Set<[String]> = [["id_token_valid"], ["id_token", "signature_valid"]]
    guard explained.contains(path), let error = result.member("id_token_error")?.unwrapped.stringValue else {
      return nil
    }
    let check = result.member("check")?.unwrapped.stringValue.map { "the '\($0)' check failed — " } ?? ""
    return check + error
  }

  /// The paths that name which error the tenant answered: its code and its status (a check of
  /// `error` itself shows the whole error, description included).
  static let errorIdentity: Set<[String]> = [["error", "code"], ["error", "status"]]

  /// The longest description quoted: a tenant's HTML error page as a description stays readable.
  static let descriptionLimit = 300

  static func tenantSaid(_ description: String) -> String {
    let flat = description.split(whereSeparator: \.isNewline).joined(separator: " ")
    let shown = flat.count > descriptionLimit ? String(flat.prefix(descriptionLimit)) + "…" : flat
    return "the tenant said \"\(shown)\""
  }
}
