import AuthFlowCore
import AuthFlowJOSE
import Foundation

/// The webauthn grant (docs/protocol.md §3.1, §3.5): completes `/passkey/register` (signup: creates the user
/// and its passkey) or `/passkey/challenge` (login: finds the passkey by credential id and user
/// handle, checks the signature and the counter).
extension TokenRoutes {
  /// The relying party id (the tenant's host) and the verifier for it.
  static func passkeyVerifier(tenant: MockTenant) -> WebAuthnVerifier {
    let base = tenant.baseURL.hasSuffix("/") ? String(tenant.baseURL.dropLast()) : tenant.baseURL
    return WebAuthnVerifier(rpID: tenant.host, originPolicy: .relyingParty(tenant.host, extra: [base]))
  }

  func webauthn(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let authSession = parameters.string("auth_session") else { throw OAuthError.missingParameter("auth_session") }
    guard let raw = parameters.values["authn_response"] else { throw OAuthError.missingParameter("authn_response") }
    // Form bodies carry the object as JSON text.
    let response = raw.stringValue.flatMap { try? Value(jsonText: $0) } ?? raw
    guard let fields = response.member("response")?.objectValue else { throw PasskeyMessages.malformedResponse }
    try checkAudience(parameters.string("audience"))
    // Taken, not read: a challenge answers one ceremony, successful or not.
    let now = tenant.clock.seconds
    guard let session = tenant.transact({ $0.takePasskeyCeremony(authSession, now: now) }),
      session.clientID == client.clientID
    else { throw PasskeyMessages.invalidSession }
    if let realm = parameters.string("realm"), realm != session.realm { throw PasskeyMessages.invalidSession }
    let verifier = Self.passkeyVerifier(tenant: tenant)
    let user: UserRecord
    switch session.kind {
    case .signup(let profile, let metadata, let userHandle):
      let credential = try verifyRegistration(fields, challenge: session.challenge, verifier: verifier)
      user = UserRecord(
        profile: profile["email"] ?? userHandle, userID: "auth0|\(RandomToken.make(bytes: 12))",
        connection: session.realm, email: profile["email"], emailVerified: false, username: profile["username"],
        phoneNumber: profile["phone_number"], name: profile["name"], nickname: profile["nickname"],
        picture: profile["picture"], givenName: profile["given_name"], familyName: profile["family_name"],
        userMetadata: metadata.mapValues(Value.string), updatedAt: now)
      let stored = passkey(credential, userID: user.userID, userHandle: userHandle, now: now)
      // The user and the passkey are created together, unless either is taken meanwhile.
      switch tenant.transact({ $0.signUpWithPasskey(user, passkey: stored) }) {
      case .created: break
      case .credentialExists: throw PasskeyMessages.credentialExists
      case .userExists: throw PasskeyMessages.userExists
      }
    case .login:
      user = try await verifyLogin(fields, credentialID: response.member("id")?.stringValue, session: session)
    case .enrollment:
      throw PasskeyMessages.invalidSession
    }
    // A passkey is a strong factor: no MFA prompt.
    return try await login(
      user, parameters: parameters, client: client, skipMFA: true, organization: session.organization)
  }

  func verifyRegistration(
    _ fields: [String: Value], challenge: String, verifier: WebAuthnVerifier
  ) throws -> RegisteredCredential {
    guard let clientData = Self.bytes(fields["clientDataJSON"]),
      let attestation = Self.bytes(fields["attestationObject"])
    else { throw PasskeyMessages.malformedResponse }
    do {
      return try verifier.verifyRegistration(
        clientDataJSON: clientData, attestationObject: attestation, expectedChallenge: challenge)
    } catch {
      throw PasskeyMessages.rejected(error)
    }
  }

  private func verifyLogin(
    _ fields: [String: Value], credentialID: String?, session: PasskeySession
  ) async throws -> UserRecord {
    guard let credentialID, let clientData = Self.bytes(fields["clientDataJSON"]),
      let authData = Self.bytes(fields["authenticatorData"]), let signature = Self.bytes(fields["signature"])
    else { throw PasskeyMessages.malformedResponse }
    guard let stored = tenant.read({ $0.passkeys.credential(id: credentialID) }),
      let user = tenant.user(id: stored.userID), user.connection == session.realm
    else { throw PasskeyMessages.unknownCredential }
    // A discoverable credential names its user: the handle must be the one registered.
    if let handle = fields["userHandle"]?.stringValue, handle != stored.userHandle {
      throw PasskeyMessages.unknownCredential
    }
    let newCount: UInt32
    do {
      newCount = try Self.passkeyVerifier(tenant: tenant).verifyAssertion(
        clientDataJSON: clientData, authenticatorData: authData, signature: signature,
        expectedChallenge: session.challenge, publicKey: stored.publicKey, storedSignCount: stored.signCount)
    } catch {
      throw PasskeyMessages.rejected(error)
    }
    guard tenant.transact({ $0.advancePasskeyCounter(credentialID, from: stored.signCount, to: newCount) }) else {
      throw PasskeyMessages.rejected(.signCountNotIncreased(stored: stored.signCount, received: newCount))
    }
    return user
  }

  func passkey(_ credential: RegisteredCredential, userID: String, userHandle: String, now: Double) -> PasskeyCredential
  {
    PasskeyCredential(
      id: Base64URL.encode(credential.credentialID), userID: userID, userHandle: userHandle,
      publicKey: credential.publicKey, signCount: credential.signCount, aaguid: credential.aaguid,
      backedUp: credential.backedUp, createdAt: now)
  }

  /// A base64url member, decoded.
  static func bytes(_ value: Value?) -> [UInt8]? {
    guard let text = value?.stringValue, let data = Base64URL.decode(text) else { return nil }
    return Array(data)
  }
}
