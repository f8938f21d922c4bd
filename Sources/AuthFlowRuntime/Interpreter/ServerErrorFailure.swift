import AuthFlowCore
import AuthFlowHTTP

/// A 5xx answer to an `http` step is the tenant failing — an environment failure (exit 3) — unless
/// the step's `expect` names `status` (the status is then the thing under test, e.g. a fault
/// injected with `mock_fault`). The other actions classify 5xx themselves (PROTOCOL §1).
enum ServerErrorFailure {
  static func unexpected(in result: Value, action: String, expectations: [[String]]) -> String? {
    guard action == HTTPAction.signature.name, let status = result.member("status")?.intValue, status >= 500,
      !expectations.contains(where: { $0.first == "status" })
    else { return nil }
    let url = result.member("url")?.stringValue.map(SensitiveData.maskURL) ?? "the tenant"
    return message(status: status, url: url)
  }

  static func message(status: Int, url: String) -> String {
    "\(url) answered HTTP \(status) (a server error: the environment, not an assertion); add "
      + "`expect: { status: \(status) }` if this is the expected outcome"
  }
}
