import AuthFlowCore
import Hummingbird

/// Test control for push MFA: `POST /__mock/mfa/push` `{"oob_code", "approve": bool}` approves or
/// rejects a pending push (what the Guardian app would do).
struct MockMFAControlRoutes {
  let tenant: MockTenant

  static let badBody = OAuthError.invalidRequest("Body must be {\"oob_code\": <code>, \"approve\": <bool>}")
  static let unknownPush = OAuthError(
    status: .notFound, code: "not_found", description: "No pending push with this oob_code")

  /// A JSON boolean, or `true`/`false` as a form body spells it.
  static func flag(_ value: Value?) -> Bool? {
    switch value {
    case .bool(let flag)?: return flag
    case .string("true")?: return true
    case .string("false")?: return false
    default: return nil
    }
  }

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "mockDecideMFAPush": { request, context in
        guard let parameters = await RequestParameters.body(of: request, context: context),
          let code = parameters.string("oob_code"), let approve = Self.flag(parameters.values["approve"])
        else { return Self.badBody.response }
        let now = tenant.clock.seconds
        guard tenant.transact({ $0.decidePush(code, approve: approve, now: now) }) else {
          return Self.unknownPush.response
        }
        return Responses.empty(status: .noContent)
      }
    ]
  }
}
