import AuthFlowCore
import Hummingbird

/// The errors of `POST /bc-authorize` and of the CIBA grant (OpenID CIBA Core §11 and §13; texts
/// from Auth0's "Back-Channel Login" API reference where it gives them). Every one is 400, as the
/// specification says, except client authentication (401, as on `/oauth/token`).
extension OAuthError {
  static let cibaPending = OAuthError(
    status: .badRequest, code: "authorization_pending", description: "The end-user authorization is pending")
  static func cibaSlowDown(interval: Int) -> OAuthError {
    OAuthError(
      status: .badRequest, code: "slow_down",
      description: "You are polling faster than allowed. Try again in \(interval) seconds.",
      headers: [.retryAfter: String(interval)])
  }
  static let cibaDenied = OAuthError(
    status: .badRequest, code: "access_denied",
    description: "The end-user denied the authorization request or it has been expired")
  static let cibaExpired = OAuthError(
    status: .badRequest, code: "expired_token",
    description: "The auth_req_id has expired. Send a new back-channel authentication request.")
  static let cibaUnknownRequest = OAuthError(
    status: .badRequest, code: "invalid_grant", description: "Invalid or already used auth_req_id")
  static let cibaPublicClient = OAuthError(
    status: .badRequest, code: "unauthorized_client",
    description: "Back-channel authentication requires a confidential client.")
  static let cibaScopeWithoutOpenID = OAuthError(
    status: .badRequest, code: "invalid_scope", description: "The scope must include openid.")
  static let cibaBadLoginHint = OAuthError.invalidRequest(
    "login_hint must be a JSON object {\"format\":\"iss_sub\",\"iss\":<issuer>,\"sub\":<user_id>}")
  static func cibaWrongIssuer(_ issuer: String) -> OAuthError {
    OAuthError.invalidRequest("login_hint iss must be this tenant: \(issuer)")
  }
  static let cibaUnknownUser = OAuthError(
    status: .badRequest, code: "unknown_user_id", description: "The user in login_hint was not found.")
  static let cibaBadBindingMessage = OAuthError(
    status: .badRequest, code: "invalid_binding_message",
    description:
      "binding_message must be at most 64 characters: letters, digits, whitespace and + - _ . , : #")
  static let cibaBadExpiry = OAuthError.invalidRequest("requested_expiry must be an integer from 1 to 300")
  static let cibaBadAuthorizationDetails = OAuthError.invalidRequest(
    "authorization_details must be a JSON array of objects, each with a string type")
}
