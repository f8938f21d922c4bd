import AuthFlowCore
import Hummingbird

/// A Management API v2 error: `{"statusCode","error","message","errorCode"}` (docs/protocol.md §7).
/// Messages are UNCONFIRMED except where docs/protocol.md §7 gives them.
struct ManagementError: ErrorResponse, Sendable {
  var status: HTTPResponse.Status
  var message: String
  var errorCode: String

  var response: Response {
    Responses.json(
      .object([
        "statusCode": .int(Int(status.code)), "error": .string(status.reasonPhrase), "message": .string(message),
        "errorCode": .string(errorCode),
      ]), status: status)
  }

  static let missingToken = ManagementError(
    status: .unauthorized, message: "Missing authentication", errorCode: "missing_authentication")
  static let invalidToken = ManagementError(status: .unauthorized, message: "Invalid token", errorCode: "invalid_token")
  static func badAudience(_ expected: String) -> ManagementError {
    ManagementError(
      status: .unauthorized, message: "Bad audience: the token is not for \(expected)", errorCode: "invalid_token")
  }
  static func insufficientScope(_ expected: [String]) -> ManagementError {
    ManagementError(
      status: .forbidden, message: "Insufficient scope, expected any of: \(expected.joined(separator: ","))",
      errorCode: "insufficient_scope")
  }
  /// A user-context token on another user's `{id}` (docs/protocol.md §7's own-user rule): 403
  /// `insufficient_scope` naming the admin scope that would allow it; docs/protocol.md §7 and §13 fix the
  /// status and leave the exact text UNCONFIRMED.
  static func notCurrentUser(_ adminScopes: [String]) -> ManagementError { insufficientScope(adminScopes) }
  static let userNotFound = ManagementError(
    status: .notFound, message: "The user does not exist.", errorCode: "inexistent_user")
  static let malformedBody = ManagementError(
    status: .badRequest, message: "Payload validation error: 'Invalid JSON body'", errorCode: "invalid_body")
  static func additionalProperty(_ name: String) -> ManagementError {
    ManagementError(
      status: .badRequest, message: "Payload validation error: 'Additional properties not allowed: \(name)'",
      errorCode: "invalid_body")
  }
  static let metadataNotObject = ManagementError(
    status: .badRequest, message: "Payload validation error: 'user_metadata must be an object'",
    errorCode: "invalid_body")
  static let missingLinkWith = ManagementError(
    status: .badRequest, message: "Payload validation error: 'Missing required property: link_with'",
    errorCode: "invalid_body")
  static let invalidLinkToken = ManagementError(
    status: .badRequest, message: "link_with must be an RS256 ID token issued by this tenant", errorCode: "invalid_body"
  )
  static let linkAudienceMismatch = ManagementError(
    status: .badRequest, message: "The link_with token's aud must be the calling token's azp", errorCode: "invalid_body"
  )
  static let linkSameUser = ManagementError(
    status: .badRequest, message: "Main identity and the new one are the same.", errorCode: "invalid_body")
  static let alreadyLinked = ManagementError(
    status: .conflict, message: "The identity is already linked.", errorCode: "identity_conflict")
  static let identityNotFound = ManagementError(
    status: .notFound, message: "The identity is not linked to the user.", errorCode: "inexistent_identity")
}

extension BearerToken {
  /// The Management API scopes this token may use: a user-context token only its current-user
  /// scopes (whatever else it carries), a client-credentials token only the others.
  var managementScopes: Set<String> {
    isClientCredentials ? scopes.subtracting(Scope.currentUser) : scopes.intersection(Scope.currentUser)
  }

  /// The Management API token of `request` (audience `<issuer>api/v2/`), or the Management API's
  /// error for a missing, invalid or foreign one. Scope checks are the caller's.
  static func management(_ request: Request, tenant: MockTenant) throws(ManagementError) -> BearerToken {
    let audience = tenant.issuer + "api/v2/"
    do {
      return try BearerToken.verify(request, tenant: tenant, audience: audience)
    } catch .missing {
      throw ManagementError.missingToken
    } catch .wrongAudience {
      throw ManagementError.badAudience(audience)
    } catch {
      throw ManagementError.invalidToken
    }
  }
}
