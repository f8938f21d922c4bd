import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// Pushed Authorization Requests (RFC 9126; docs/protocol.md §2.1 "PAR"; auth0-python's
/// `PushedAuthorizationRequests`): `POST /oauth/par` stores the authorization parameters of an
/// authenticated client and answers `201 {"request_uri","expires_in"}`; `/authorize?client_id=…&
/// request_uri=…` then runs with the stored parameters (single use; other query parameters are
/// ignored, as RFC 9126 §4 says).
struct PushedAuthorizationRoutes {
  let tenant: MockTenant

  static let uriPrefix = "urn:ietf:params:oauth:request_uri:"
  /// Auth0 answers `expires_in: 30` (UNCONFIRMED; RFC 9126's example uses 60).
  static let lifetime = 30
  /// Client authentication parameters, not authorization parameters: never stored.
  static let credentialKeys: Set<String> = ["client_secret", "client_assertion", "client_assertion_type"]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "pushAuthorizationRequest": { request, context in
        await OAuthError.respond(otherwise: { _ in .malformedBody }) { try await push(request, context: context) }
      }
    ]
  }

  private func push(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    let client = try ClientAuthentication.authenticate(parameters, in: tenant)
    if parameters.has("request_uri") { throw OAuthError.parRequestURINotAllowed }
    guard parameters.string("response_type") != nil else { throw OAuthError.missingParameter("response_type") }
    guard let redirectURI = parameters.string("redirect_uri") else {
      throw OAuthError.missingParameter("redirect_uri")
    }
    guard client.callbacks.contains(redirectURI) else { throw OAuthError.parCallbackMismatch(redirectURI) }
    var stored: [String: Value] = [:]
    for (name, value) in parameters.values where !Self.credentialKeys.contains(name) && value != .null {
      guard let text = Self.text(value) else { throw OAuthError.parBadParameter(name) }
      stored[name] = .string(text)
    }
    stored["client_id"] = .string(client.clientID)
    let uri = Self.uriPrefix + RandomToken.make(bytes: 24)
    let expiresAt = tenant.clock.seconds + Double(Self.lifetime)
    tenant.transact { $0.pushAuthorizationRequest(stored, uri: uri, expiresAt: expiresAt) }
    return Responses.json(
      .object(["request_uri": .string(uri), "expires_in": .int(Self.lifetime)]), status: .created)
  }

  /// A scalar parameter as the text a query string would carry.
  static func text(_ value: Value) -> String? {
    switch value {
    case .string(let text): return text
    case .int(let number): return String(number)
    case .double(let number): return String(number)
    case .bool(let flag): return flag ? "true" : "false"
    default: return nil
    }
  }

  /// The stored parameters a `/authorize` query's `request_uri` names (used up), or the error page's
  /// error: unknown, used, expired, or pushed by another client.
  func redeem(_ query: RequestParameters) async -> Result<RequestParameters, AuthorizeError> {
    guard let uri = query.string("request_uri"), uri.hasPrefix(Self.uriPrefix) else {
      return .failure(.invalidRequestURI)
    }
    guard let clientID = query.string("client_id") else { return .failure(.missingParameter("client_id")) }
    // The client is checked before the request is used up: another client naming the
    // request_uri must not burn it.
    let now = tenant.clock.seconds
    guard let stored = tenant.transact({ $0.consumePushedRequest(uri, clientID: clientID, now: now) }) else {
      return .failure(.invalidRequestURI)
    }
    return .success(RequestParameters(values: stored))
  }
}

extension OAuthError {
  static let parRequestURINotAllowed = OAuthError.invalidRequest("request_uri is not allowed in a pushed request")
  static func parCallbackMismatch(_ uri: String) -> OAuthError {
    OAuthError.invalidRequest("Callback URL mismatch. \(uri) is not in the list of allowed callback URLs")
  }
  static func parBadParameter(_ name: String) -> OAuthError {
    OAuthError.invalidRequest("\(name) must be a string")
  }
}

extension AuthorizeError {
  static let invalidRequestURI = AuthorizeError(
    code: "invalid_request_uri", description: "The request_uri is unknown, used or expired.")
}
