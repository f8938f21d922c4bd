import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// A verified access token presented as `Authorization: Bearer …` to `/me/v1/*` or `/api/v2/*`.
struct BearerToken: Sendable {
  var claims: [String: Value]

  var subject: String? { claims["sub"]?.stringValue }
  var authorizedParty: String? { claims["azp"]?.stringValue }
  var scopes: Set<String> { Set(Scope.parse(claims["scope"]?.stringValue ?? "")) }
  var isClientCredentials: Bool { claims["gty"]?.stringValue == "client-credentials" }

  /// Why a bearer token is not accepted.
  enum Rejection: Error, Sendable {
    case missing
    case invalid
    case wrongAudience
  }

  /// The token of `request`, checked: signed by the tenant, not expired, issued by it, and meant
  /// for `audience`.
  static func verify(_ request: Request, tenant: MockTenant, audience: String) throws(Rejection) -> BearerToken {
    guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
      throw .missing
    }
    let token = String(header.dropFirst(7)).trimmingWhitespace()
    guard let jws = tenant.verifyIssued(token), jws.claims["iss"]?.stringValue == tenant.issuer,
      let expiry = jws.claims["exp"]?.intValue, expiry > tenant.clock.epoch
    else { throw .invalid }
    let audiences: [String]
    switch jws.claims["aud"] {
    case .string(let single)?: audiences = [single]
    case .array(let items)?: audiences = items.compactMap(\.stringValue)
    default: audiences = []
    }
    guard audiences.contains(audience) else { throw .wrongAudience }
    return BearerToken(claims: jws.claims)
  }
}
