import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// `POST /bc-authorize`: Client-Initiated Backchannel Authentication (OpenID CIBA Core, poll mode;
/// Auth0's "Back-Channel Login", used by auth0-python's `BackChannelLogin`). A confidential client
/// with the CIBA grant names the user with an `iss_sub` `login_hint`; the answer is
/// `{"auth_req_id","expires_in","interval"}`. The user's decision comes from the test control
/// `POST /__mock/ciba/{auth_req_id}`; the client polls `/oauth/token` with the CIBA grant.
struct BackchannelRoutes {
  let tenant: MockTenant

  /// Auth0's defaults: requests live 300 s unless `requested_expiry` (1–300) says less; poll every 5 s.
  static let defaultExpiry = 300
  static let pollInterval = 5
  static let maximumBindingMessage = 64
  /// Auth0: "Use only alphanumeric and +-_.,:# characters" (its own examples use spaces too).
  static let bindingPunctuation: Set<Character> = ["+", "-", "_", ".", ",", ":", "#"]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "backchannelAuthorize": { request, context in
        await OAuthError.respond(otherwise: { _ in .malformedBody }) { try await authorize(request, context: context) }
      }
    ]
  }

  private func authorize(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let (parameters, client) = try await ClientAuthentication.request(
      request, context: context, tenant: tenant, grant: TokenRoutes.GrantType.ciba)
    guard client.isConfidential else { throw OAuthError.cibaPublicClient }
    guard let scopeText = parameters.string("scope") else { throw OAuthError.missingParameter("scope") }
    let scope = Scope.parse(scopeText)
    guard scope.contains("openid") else { throw OAuthError.cibaScopeWithoutOpenID }
    guard let bindingMessage = parameters.string("binding_message") else {
      throw OAuthError.missingParameter("binding_message")
    }
    guard Self.isValidBindingMessage(bindingMessage) else { throw OAuthError.cibaBadBindingMessage }
    guard let hint = parameters.string("login_hint") else { throw OAuthError.missingParameter("login_hint") }
    let user = try await user(loginHint: hint)
    if user.blocked { throw OAuthError.blockedUser }
    let audience = parameters.string("audience")
    if let audience, tenant.api(audience: audience) == nil { throw OAuthError.serviceNotEnabled(audience) }
    let expiry = try Self.expiry(parameters.string("requested_expiry"))
    let details = try Self.authorizationDetails(parameters.values["authorization_details"])

    let id = RandomToken.make(bytes: 32)
    let now = tenant.clock.seconds
    let backchannel = BackchannelRequest(
      clientID: client.clientID, userID: user.userID, scope: scope, audience: audience, bindingMessage: bindingMessage,
      authorizationDetails: details, interval: Self.pollInterval, expiresAt: now + Double(expiry))
    tenant.transact { $0.startBackchannelRequest(backchannel, id: id) }
    return Responses.json(
      .object([
        "auth_req_id": .string(id), "expires_in": .int(expiry), "interval": .int(Self.pollInterval),
      ]))
  }

  /// The user an `iss_sub` login hint names. `iss` must be this tenant; the scheme may be `https`
  /// while the mock serves `http` (SDKs build `https://{domain}/`), and the trailing slash may be
  /// missing.
  private func user(loginHint: String) async throws -> UserRecord {
    guard case .object(let hint)? = try? Value(json: Data(loginHint.utf8)),
      hint["format"]?.stringValue == "iss_sub", let issuer = hint["iss"]?.stringValue,
      let subject = hint["sub"]?.stringValue, !subject.isEmpty
    else { throw OAuthError.cibaBadLoginHint }
    guard Self.sameIssuer(issuer, tenant.issuer) else { throw OAuthError.cibaWrongIssuer(tenant.issuer) }
    guard let user = tenant.user(id: subject) else { throw OAuthError.cibaUnknownUser }
    return user
  }

  static func sameIssuer(_ given: String, _ expected: String) -> Bool {
    func normalized(_ text: String) -> String {
      var rest = Substring(text)
      for scheme in ["https://", "http://"] where rest.lowercased().hasPrefix(scheme) {
        rest = rest.dropFirst(scheme.count)
      }
      while rest.hasSuffix("/") { rest = rest.dropLast() }
      return rest.lowercased()
    }
    let scheme = given.lowercased()
    return (scheme.hasPrefix("https://") || scheme.hasPrefix("http://")) && normalized(given) == normalized(expected)
  }

  static func isValidBindingMessage(_ text: String) -> Bool {
    text.count <= maximumBindingMessage
      && text.allSatisfy { character in
        (character.isASCII && (character.isLetter || character.isNumber)) || character == " "
          || bindingPunctuation.contains(character)
      }
  }

  /// `requested_expiry`: whole seconds from 1 to 300 (a string in form bodies).
  static func expiry(_ text: String?) throws(OAuthError) -> Int {
    guard let text else { return defaultExpiry }
    guard let seconds = Int(text), (1...defaultExpiry).contains(seconds) else { throw OAuthError.cibaBadExpiry }
    return seconds
  }

  /// `authorization_details`: a JSON array of objects with a string `type` (a JSON string in form
  /// bodies, which is how auth0-python sends it).
  static func authorizationDetails(_ value: Value?) throws(OAuthError) -> Value? {
    guard let value, value != .null else { return nil }
    let parsed: Value
    if case .string(let text) = value {
      guard let decoded = try? Value(json: Data(text.utf8)) else { throw OAuthError.cibaBadAuthorizationDetails }
      parsed = decoded
    } else {
      parsed = value
    }
    guard let items = parsed.arrayValue, !items.isEmpty,
      items.allSatisfy({ $0.member("type")?.stringValue?.isEmpty == false })
    else { throw OAuthError.cibaBadAuthorizationDetails }
    return parsed
  }
}
