import AuthFlowCore
import Hummingbird

/// `POST /oauth/revoke` (docs/protocol.md §4.7): revokes a refresh token's family; unknown tokens are 200.
struct RevokeRoutes {
  let tenant: MockTenant

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "revokeRefreshToken": { request, context in
        await OAuthError.respond {
          guard let parameters = await RequestParameters.body(of: request, context: context) else {
            throw OAuthError.malformedBody
          }
          let client: ClientConfig
          do {
            client = try ClientAuthentication.authenticate(parameters, in: tenant)
          } catch let error as OAuthError {
            throw error.code == "access_denied" ? RevokeRoutes.invalidClient : error
          }
          guard let token = parameters.string("token") else { throw OAuthError.missingParameter("token") }
          tenant.transact { $0.revokeRefreshToken(token, clientID: client.clientID) }
          return Responses.empty()
        }
      }
    ]
  }

  static let invalidClient = OAuthError(
    status: .unauthorized, code: "invalid_client", description: "Client authentication failed.")
}
