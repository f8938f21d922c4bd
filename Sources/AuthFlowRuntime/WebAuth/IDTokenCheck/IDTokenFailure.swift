import AuthFlowCore
import AuthFlowResults

/// An ID token that failed validation fails its step with docs/protocol.md §5's message, unless the
/// step's `expect` names `id_token_valid` or `id_token_error` (it is then the thing under test).
enum IDTokenFailure {
  /// The path of the failure's problem: the result member it is about.
  static let path = PlanTable.idTokenPath

  static func unexpected(in result: Value, expectations: [[String]]) -> String? {
    guard result.member("id_token_valid")?.boolValue == false,
      !expectations.contains(where: { ["id_token_valid", "id_token_error", "error"].contains($0.first ?? "") })
    else { return nil }
    return result.member("id_token_error")?.stringValue ?? "the ID token is not valid"
  }
}
