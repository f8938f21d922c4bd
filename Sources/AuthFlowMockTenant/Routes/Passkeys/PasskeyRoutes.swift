import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// `POST /passkey/register` and `POST /passkey/challenge` (docs/protocol.md §4.5): start a passkey signup or
/// login; the `/oauth/token` webauthn grant completes it (`TokenRoutes+Passkeys.swift`).
///
/// The mock cannot require a custom domain; every other docs/protocol.md §4.5 rule is enforced. Error bodies are
/// OAuth style (the envelope is UNCONFIRMED).
struct PasskeyRoutes {
  let tenant: MockTenant

  /// Attributes `user_profile` may hold; any other key gives `invalid_request`.
  static let profileKeys: Set<String> = [
    "email", "phone_number", "username", "name", "given_name", "family_name", "nickname", "picture",
  ]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "passkeyRegister": { request, context in
        await respond { try await signup(request, context: context) }
      },
      "passkeyChallenge": { request, context in
        await respond { try await challenge(request, context: context) }
      },
    ]
  }

  private func respond(_ body: () async throws -> Value) async -> Response {
    await OAuthError.respond(otherwise: { .invalidRequest("\($0)") }) { Responses.json(try await body()) }
  }

  private func signup(_ request: Request, context: BasicRequestContext) async throws -> Value {
    let (parameters, client) = try await start(request, context: context)
    guard case .object(let profileValues)? = parameters.values["user_profile"] else {
      throw OAuthError.missingParameter("user_profile")
    }
    var profile: [String: String] = [:]
    for (key, value) in profileValues {
      guard Self.profileKeys.contains(key) else { throw PasskeyMessages.unknownProfileKey(key) }
      guard let text = value.stringValue else { throw PasskeyMessages.profileNotString(key) }
      profile[key] = text
    }
    // docs/protocol.md §4.5: `phone_number` in E.164, as `/passwordless/start` requires it.
    if let phone = profile["phone_number"], !PasswordlessRoutes.isE164(phone) { throw PasskeyMessages.badPhoneNumber }
    guard let email = profile["email"] else { throw PasskeyMessages.emailRequired }
    let realm = try realm(parameters, client: client)
    if tenant.read({ $0.users.find(email, connection: realm) }) != nil { throw PasskeyMessages.userExists }
    let metadata = try Self.metadata(parameters.values["user_metadata"])
    let userHandle = RandomToken.make(bytes: 32)
    let session = PasskeySession(
      kind: .signup(profile: profile, metadata: metadata, userHandle: userHandle), clientID: client.clientID,
      realm: realm, challenge: RandomToken.make(bytes: 32),
      organization: try organization(parameters))
    let authSession = try await store(session)
    return .object([
      "auth_session": .string(authSession),
      "authn_params_public_key": Self.creationOptions(
        challenge: session.challenge, rpID: tenant.host, userHandle: userHandle, name: email,
        displayName: profile["name"] ?? email),
    ])
  }

  private func challenge(_ request: Request, context: BasicRequestContext) async throws -> Value {
    let (parameters, client) = try await start(request, context: context)
    let session = PasskeySession(
      kind: .login, clientID: client.clientID, realm: try realm(parameters, client: client),
      challenge: RandomToken.make(bytes: 32), organization: try organization(parameters))
    let authSession = try await store(session)
    return .object([
      "auth_session": .string(authSession),
      "authn_params_public_key": .object([
        "challenge": .string(session.challenge), "timeout": .int(60000), "rpId": .string(tenant.host),
        "userVerification": .string("preferred"),
      ]),
    ])
  }

  /// Body, client authentication and the webauthn grant check shared by both endpoints.
  private func start(
    _ request: Request, context: BasicRequestContext
  ) async throws -> (RequestParameters, ClientConfig) {
    let (parameters, client) = try await ClientAuthentication.request(
      request, context: context, tenant: tenant, grant: TokenRoutes.GrantType.webauthn)
    guard client.kind != .m2m else { throw PasskeyMessages.notFirstPartyApp }
    return (parameters, client)
  }

  private func realm(_ parameters: RequestParameters, client: ClientConfig) throws -> String {
    let realm = parameters.string("realm") ?? "Username-Password-Authentication"
    guard let connection = tenant.fixture.connection(named: realm), connection.strategy == .database else {
      throw OAuthError.connectionNotFound
    }
    guard connection.enabledClients.isEmpty || connection.enabledClients.contains(client.profile) else {
      throw OAuthError.connectionDisabled
    }
    return realm
  }

  private func organization(_ parameters: RequestParameters) throws -> OrganizationConfig? {
    guard let reference = parameters.string("organization") else { return nil }
    guard let organization = tenant.organization(reference) else {
      throw OAuthError.organizationNotFound(reference)
    }
    return organization
  }

  private func store(_ session: PasskeySession) async throws -> String {
    let authSession = RandomToken.make(bytes: 32)
    let expiresAt = tenant.clock.seconds + PasskeyMessages.sessionLifetime
    tenant.transact { $0.startPasskeyCeremony(session, authSession: authSession, expiresAt: expiresAt) }
    return authSession
  }

  /// `user_metadata`: at most 10 string fields.
  static func metadata(_ value: Value?) throws -> [String: String] {
    guard let value, !value.isNull else { return [:] }
    guard let members = value.objectValue, members.count <= 10 else { throw PasskeyMessages.badMetadata }
    var metadata: [String: String] = [:]
    for (key, member) in members {
      guard let text = member.stringValue, key.count <= 100, text.count <= 500 else {
        throw PasskeyMessages.badMetadata
      }
      metadata[key] = text
    }
    return metadata
  }

  /// `PublicKeyCredentialCreationOptions` as docs/protocol.md §4.5 shows them (also used by My Account).
  static func creationOptions(
    challenge: String, rpID: String, userHandle: String, name: String, displayName: String
  ) -> Value {
    .object([
      "challenge": .string(challenge), "timeout": .int(60000),
      "rp": .object(["id": .string(rpID), "name": .string(rpID)]),
      "user": .object(["id": .string(userHandle), "name": .string(name), "displayName": .string(displayName)]),
      "pubKeyCredParams": .array(
        [-8, -7, -257].map { .object(["type": .string("public-key"), "alg": .int($0)]) }),
      "authenticatorSelection": .object([
        "residentKey": .string("required"), "userVerification": .string("preferred"),
      ]),
    ])
  }
}

/// The passkey endpoints' and grant's error messages (texts UNCONFIRMED unless docs/protocol.md §4.5 gives them).
enum PasskeyMessages {
  static let sessionLifetime: Double = 60
  static func unknownProfileKey(_ key: String) -> OAuthError {
    OAuthError.invalidRequest("Unknown user_profile attribute: \(key)")
  }
  static func profileNotString(_ key: String) -> OAuthError {
    OAuthError.invalidRequest("user_profile.\(key) must be a string")
  }
  static let badPhoneNumber = OAuthError.invalidRequest(
    "user_profile.phone_number must be in E.164 format (^\\+[0-9]{1,15}$)")
  static let emailRequired = OAuthError.invalidRequest("user_profile.email is required by the connection")
  static let userExists = OAuthError.invalidRequest("The user already exists.")
  static let badMetadata = OAuthError.invalidRequest(
    "user_metadata must have at most 10 string properties (keys ≤ 100, values ≤ 500 characters)")
  static let notFirstPartyApp = OAuthError(
    status: .badRequest, code: "invalid_request", description: "Passkeys are only available to first-party applications"
  )
  static let invalidSession = OAuthError.invalidGrant("The auth_session is invalid, expired or already used.")
  static let malformedResponse = OAuthError.invalidRequest("authn_response is not a valid WebAuthn response")
  static let unknownCredential = OAuthError.invalidGrant("The passkey is not registered.")
  static let credentialExists = OAuthError.invalidGrant("The passkey is already registered.")
  static func rejected(_ error: WebAuthnError) -> OAuthError {
    OAuthError(status: .forbidden, code: "invalid_grant", description: error.description)
  }
}
