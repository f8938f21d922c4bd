import Crypto
import Foundation

/// Which `clientDataJSON.origin` values a relying party accepts.
public struct OriginPolicy: Sendable {
  /// Exact origins accepted, e.g. `https://login.example.com`.
  public var origins: Set<String>
  /// Accept native-app origins (`ios:bundle-id:…`, `android:apk-key-hash:…`), as Auth0 does for
  /// native passkeys.
  public var allowsNativeApps: Bool

  public init(origins: Set<String>, allowsNativeApps: Bool = true) {
    self.origins = origins
    self.allowsNativeApps = allowsNativeApps
  }

  /// The policy for a relying party id: `https://<rpID>` plus native apps.
  public static func relyingParty(_ rpID: String, extra: [String] = []) -> OriginPolicy {
    OriginPolicy(origins: Set(["https://\(rpID)"] + extra))
  }

  public func allows(_ origin: String) -> Bool {
    origins.contains(origin)
      || (allowsNativeApps && (origin.hasPrefix("ios:bundle-id:") || origin.hasPrefix("android:apk-key-hash:")))
  }
}

/// A credential accepted by a registration.
public struct RegisteredCredential: Sendable {
  public var credentialID: [UInt8]
  public var publicKey: COSEKey
  public var signCount: UInt32
  public var aaguid: [UInt8]
  public var backupEligible: Bool
  public var backedUp: Bool
}

/// Verifies WebAuthn registrations (attestation format `none`) and assertions for a relying party
/// (WebAuthn Level 2 §7.1 and §7.2, the steps a server needs without attestation trust).
public struct WebAuthnVerifier: Sendable {
  public var rpID: String
  public var originPolicy: OriginPolicy
  public var requiresUserVerification: Bool

  public init(rpID: String, originPolicy: OriginPolicy? = nil, requiresUserVerification: Bool = false) {
    self.rpID = rpID
    self.originPolicy = originPolicy ?? .relyingParty(rpID)
    self.requiresUserVerification = requiresUserVerification
  }

  /// Checks a registration and returns the new credential.
  public func verifyRegistration(
    clientDataJSON: [UInt8], attestationObject: [UInt8], expectedChallenge: String
  ) throws(WebAuthnError) -> RegisteredCredential {
    try checkClientData(clientDataJSON, type: ClientData.create, challenge: expectedChallenge)
    guard let attestation = try? CBORDecoder.decode(attestationObject), let format = attestation["fmt"]?.textValue,
      let statement = attestation["attStmt"]?.mapValue, let rawAuthData = attestation["authData"]?.bytesValue
    else { throw .malformedAttestation }
    guard format == "none" else { throw .unsupportedAttestationFormat(format) }
    guard statement.isEmpty else { throw .malformedAttestation }
    let authData = try checkAuthenticatorData(rawAuthData)
    guard let credential = authData.attestedCredential else { throw .missingCredential }
    return RegisteredCredential(
      credentialID: credential.credentialID, publicKey: credential.publicKey, signCount: authData.signCount,
      aaguid: credential.aaguid, backupEligible: authData.flags.contains(.backupEligible),
      backedUp: authData.flags.contains(.backedUp))
  }

  /// Checks an assertion against the stored key and counter; returns the new counter.
  public func verifyAssertion(
    clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], expectedChallenge: String,
    publicKey: COSEKey, storedSignCount: UInt32
  ) throws(WebAuthnError) -> UInt32 {
    try checkClientData(clientDataJSON, type: ClientData.get, challenge: expectedChallenge)
    let authData = try checkAuthenticatorData(authenticatorData)
    guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { throw .badSignature }
    let signed = Data(authenticatorData + Array(SHA256.hash(data: Data(clientDataJSON))))
    guard publicKey.publicKey.isValidSignature(ecdsa, for: signed) else { throw .badSignature }
    // WebAuthn Level 2 §7.2 step 21: a counter that does not grow (when either is non-zero) signals a cloned key.
    if authData.signCount != 0 || storedSignCount != 0, authData.signCount <= storedSignCount {
      throw .signCountNotIncreased(stored: storedSignCount, received: authData.signCount)
    }
    return authData.signCount
  }

  private func checkClientData(_ json: [UInt8], type: String, challenge: String) throws(WebAuthnError) {
    guard let clientData = ClientData(json: json) else { throw .malformedClientData }
    guard clientData.type == type else { throw .wrongType(expected: type, found: clientData.type) }
    guard RandomToken.constantTimeEquals(clientData.challenge, challenge) else { throw .challengeMismatch }
    guard originPolicy.allows(clientData.origin) else { throw .originNotAllowed(clientData.origin) }
  }

  private func checkAuthenticatorData(_ bytes: [UInt8]) throws(WebAuthnError) -> AuthenticatorData {
    guard let authData = AuthenticatorData(bytes: bytes) else { throw .malformedAuthenticatorData }
    guard authData.rpIDHash == AuthenticatorData.rpIDHash(rpID) else { throw .rpIDMismatch }
    guard authData.flags.contains(.userPresent) else { throw .userNotPresent }
    if requiresUserVerification, !authData.flags.contains(.userVerified) { throw .userNotVerified }
    return authData
  }
}
