import AuthFlowCore
import Hummingbird

/// Test control for CIBA: `POST /__mock/ciba/{auth_req_id}` `{"approve": bool}` approves or denies
/// a pending `/bc-authorize` request (what the user does on their authentication device).
struct MockBackchannelControlRoutes {
  let tenant: MockTenant

  static let badBody = OAuthError.invalidRequest("Body must be {\"approve\": <bool>}")
  static let unknownRequest = OAuthError(
    status: .notFound, code: "not_found", description: "No pending back-channel request with this auth_req_id")

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "mockDecideBackchannelRequest": { request, context in
        guard let parameters = await RequestParameters.body(of: request, context: context),
          let approve = Self.approval(parameters)
        else { return Self.badBody.response }
        let now = tenant.clock.seconds
        guard let id = context.parameters.get("auth_req_id"),
          tenant.transact({ $0.decideBackchannelRequest(id, approve: approve, now: now) })
        else { return Self.unknownRequest.response }
        return Responses.empty(status: .noContent)
      }
    ]
  }

  /// `approve` as a JSON boolean, or `true`/`false` in a form body.
  static func approval(_ parameters: RequestParameters) -> Bool? {
    switch parameters.values["approve"] {
    case .bool(let flag)?: return flag
    case .string("true")?: return true
    case .string("false")?: return false
    default: return nil
    }
  }
}
