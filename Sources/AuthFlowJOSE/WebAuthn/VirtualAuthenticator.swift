public import AuthFlowCore
import Crypto
import Foundation

/// A software WebAuthn authenticator: one P-256 key per credential, resident (discoverable)
/// credentials with user handles, attestation format `none`, a counter per credential.
///
/// A value type: the runtime keeps one per named authenticator for the scenario.
public struct VirtualAuthenticator: Sendable {
  /// A credential the authenticator holds.
  public struct Credential: Sendable {
    public var id: [UInt8]
    public var rpID: String
    public var userHandle: [UInt8]
    public var userName: String
    public var signCount: UInt32
    let privateKey: P256.Signing.PrivateKey
  }

  /// Why the authenticator could not answer.
  public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    case noCredential(rpID: String)
    public var description: String {
      switch self {
      case .noCredential(let rpID): return "The authenticator has no credential for the relying party '\(rpID)'"
      }
    }
  }

  /// The AAGUID of attestation `none` responses.
  public static let aaguid = [UInt8](repeating: 0, count: 16)

  public private(set) var credentials: [Credential] = []
  /// `platform` or `cross-platform`, reported as `authenticatorAttachment`.
  public var attachment: String
  /// Whether responses set the user-verified flag.
  public var verifiesUser: Bool

  public init(attachment: String = "platform", verifiesUser: Bool = true) {
    self.attachment = attachment
    self.verifiesUser = verifiesUser
  }

  private var flags: AuthenticatorData.Flags { verifiesUser ? [.userPresent, .userVerified] : [.userPresent] }

  /// `navigator.credentials.create`: a new resident credential. Returns the `authn_response`
  /// (docs/protocol.md §3.5, attestation shape). A credential for the same rp and user handle is replaced.
  public mutating func register(
    rpID: String, userHandle: [UInt8], userName: String, challenge: String, origin: String
  ) -> Value {
    let key = P256.Signing.PrivateKey()
    let credentialID = Array(SHA256.hash(data: Data(key.publicKey.x963Representation)))
    credentials.removeAll { $0.rpID == rpID && $0.userHandle == userHandle }
    credentials.append(
      Credential(
        id: credentialID, rpID: rpID, userHandle: userHandle, userName: userName, signCount: 0, privateKey: key))
    let authData = AuthenticatorData(
      rpIDHash: AuthenticatorData.rpIDHash(rpID), flags: flags, signCount: 0,
      attestedCredential: .init(
        aaguid: Self.aaguid, credentialID: credentialID, publicKey: COSEKey(publicKey: key.publicKey)))
    let attestation = CBOR.map([
      .text("fmt"): .text("none"), .text("attStmt"): .map([:]), .text("authData"): .bytes(authData.bytes),
    ])
    let clientData = ClientData(type: ClientData.create, challenge: challenge, origin: origin)
    return response(
      credentialID: credentialID,
      fields: [
        "clientDataJSON": Base64URL.encode(clientData.json), "attestationObject": Base64URL.encode(attestation.encoded),
      ])
  }

  /// `navigator.credentials.get`: signs the challenge with a credential for `rpID` (the most
  /// recent one, or one of `allowCredentials`), increasing its counter. Returns the
  /// `authn_response` (docs/protocol.md §3.5, assertion shape).
  public mutating func assert(
    rpID: String, challenge: String, origin: String, allowCredentials: [[UInt8]] = []
  ) throws(Failure) -> Value {
    guard
      let index = credentials.lastIndex(where: {
        $0.rpID == rpID && (allowCredentials.isEmpty || allowCredentials.contains($0.id))
      })
    else { throw .noCredential(rpID: rpID) }
    credentials[index].signCount += 1
    let credential = credentials[index]
    let authData = AuthenticatorData(
      rpIDHash: AuthenticatorData.rpIDHash(rpID), flags: flags, signCount: credential.signCount
    ).bytes
    let clientData = ClientData(type: ClientData.get, challenge: challenge, origin: origin).json
    let signed = Data(authData + Array(SHA256.hash(data: Data(clientData))))
    let signature = (try? credential.privateKey.signature(for: signed).derRepresentation).map(Array.init) ?? []
    return response(
      credentialID: credential.id,
      fields: [
        "clientDataJSON": Base64URL.encode(clientData), "authenticatorData": Base64URL.encode(authData),
        "signature": Base64URL.encode(signature), "userHandle": Base64URL.encode(credential.userHandle),
      ])
  }

  private func response(credentialID: [UInt8], fields: [String: String]) -> Value {
    let id = Base64URL.encode(credentialID)
    return .object([
      "id": .string(id), "rawId": .string(id), "type": .string("public-key"),
      "authenticatorAttachment": .string(attachment), "response": .object(fields.mapValues(Value.string)),
    ])
  }
}
