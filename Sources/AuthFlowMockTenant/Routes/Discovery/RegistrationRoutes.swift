import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// `POST /oidc/register`: OpenID Connect Dynamic Client Registration (RFC 7591), as Auth0 offers
/// it when the tenant's `dynamic_client_registration` flag is on (off by default). A registered
/// client is public (`token_endpoint_auth_method: none`) or confidential (a secret, Basic or
/// post) and can use `/authorize` and `/oauth/token` with the grants it registered.
struct RegistrationRoutes {
  let tenant: MockTenant

  /// Grants a dynamically registered client may ask for (Auth0: third-party apps).
  static let allowedGrants = ["authorization_code", "implicit", "refresh_token"]
  static let authMethods = ["none", "client_secret_basic", "client_secret_post"]
  /// Registered clients kept at most (bounded memory); later registrations are refused.
  static let maxClients = 1000

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "registerClient": { request, context in
        await OAuthError.respond { try await register(request, context: context) }
      }
    ]
  }

  private func register(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard tenant.fixture.settings.dynamicClientRegistration else { throw OAuthError.registrationDisabled }
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    let redirectURIs: [String]
    switch parameters.values["redirect_uris"] {
    case .array(let items)?:
      redirectURIs = items.compactMap(\.stringValue)
      guard redirectURIs.count == items.count else { throw OAuthError.invalidRedirectURI }
    case .string(let text)?: redirectURIs = [text]
    default: redirectURIs = []
    }
    guard !redirectURIs.isEmpty, redirectURIs.allSatisfy(Self.isValidRedirectURI) else {
      throw OAuthError.invalidRedirectURI
    }
    let method = parameters.string("token_endpoint_auth_method") ?? "client_secret_basic"
    guard Self.authMethods.contains(method) else {
      throw OAuthError.invalidClientMetadata(
        "token_endpoint_auth_method must be one of: none, client_secret_basic, client_secret_post")
    }
    var grants = ["authorization_code", "refresh_token"]
    if let requested = parameters.values["grant_types"] {
      guard case .array(let items) = requested else {
        throw OAuthError.invalidClientMetadata("grant_types must be an array")
      }
      grants = items.compactMap(\.stringValue)
      guard grants.count == items.count, !grants.isEmpty, grants.allSatisfy(Self.allowedGrants.contains) else {
        throw OAuthError.invalidClientMetadata(
          "grant_types may only contain: authorization_code, implicit, refresh_token")
      }
    }
    let name = parameters.string("client_name") ?? "Dynamic client"
    guard name.count <= 100 else { throw OAuthError.invalidClientMetadata("client_name is longer than 100 characters") }
    let clientID = RandomToken.make(bytes: 24)
    let secret = method == "none" ? nil : RandomToken.make(bytes: 48)
    let client = ClientConfig(
      profile: "dynamic:\(clientID)", clientID: clientID, clientSecret: secret,
      kind: secret == nil ? .native : .regular, name: name, callbacks: redirectURIs, grantTypes: grants)
    guard tenant.transact({ $0.registerClient(client, limit: Self.maxClients) }) else {
      throw OAuthError.tooManyRegisteredClients
    }
    var body: [String: Value] = [
      "client_id": .string(clientID), "client_name": .string(name),
      "redirect_uris": .array(redirectURIs.map(Value.string)), "grant_types": .array(grants.map(Value.string)),
      "token_endpoint_auth_method": .string(method), "client_id_issued_at": .int(tenant.clock.epoch),
    ]
    if let secret {
      body["client_secret"] = .string(secret)
      body["client_secret_expires_at"] = .int(0)
    }
    return Responses.json(.object(body), status: .created)
  }

  /// An absolute redirect URI without a fragment: `https`, `http` on a loopback host, or a
  /// native app's custom scheme; never `javascript:`, `data:`, `file:` or the like.
  static func isValidRedirectURI(_ text: String) -> Bool {
    guard text.count <= 2048, let components = URLComponents(string: text),
      let scheme = components.scheme?.lowercased(),
      components.fragment == nil
    else { return false }
    switch scheme {
    case "https": return !(components.host ?? "").isEmpty
    case "http": return ["localhost", "127.0.0.1", "[::1]", "::1"].contains(components.host ?? "")
    case "javascript", "data", "file", "vbscript", "about", "blob": return false
    default: return scheme.contains(".") && !(components.host ?? components.path).isEmpty
    }
  }
}

extension OAuthError {
  /// `/oidc/register` while the tenant flag is off (Auth0's exact status and text UNCONFIRMED).
  static let registrationDisabled = OAuthError(
    status: .forbidden, code: "access_denied",
    description: "Dynamic client registration is not enabled for this tenant.")
  /// RFC 7591 §3.2.2; Auth0's documented text.
  static let invalidRedirectURI = OAuthError(
    status: .badRequest, code: "invalid_redirect_uri", description: "One or more redirect_uri values are invalid")
  static func invalidClientMetadata(_ why: String) -> OAuthError {
    OAuthError(status: .badRequest, code: "invalid_client_metadata", description: why)
  }
  static let tooManyRegisteredClients = OAuthError(
    status: .tooManyRequests, code: "too_many_requests", description: "Too many registered clients.")
}
