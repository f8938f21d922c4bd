/// Why a WebAuthn registration or assertion was rejected. The descriptions are the messages the
/// mock returns (no secret material in them).
public enum WebAuthnError: Error, Sendable, Hashable, CustomStringConvertible {
  case malformedClientData
  case wrongType(expected: String, found: String)
  case challengeMismatch
  case originNotAllowed(String)
  case malformedAttestation
  case unsupportedAttestationFormat(String)
  case malformedAuthenticatorData
  case rpIDMismatch
  case userNotPresent
  case userNotVerified
  case missingCredential
  case unsupportedKey
  case badSignature
  case signCountNotIncreased(stored: UInt32, received: UInt32)

  public var description: String {
    switch self {
    case .malformedClientData: return "clientDataJSON is not valid client data"
    case .wrongType(let expected, let found): return "clientDataJSON type is '\(found)', expected '\(expected)'"
    case .challengeMismatch: return "The challenge does not match"
    case .originNotAllowed(let origin): return "The origin '\(origin)' is not allowed"
    case .malformedAttestation: return "attestationObject is not a valid attestation object"
    case .unsupportedAttestationFormat(let format): return "Unsupported attestation format '\(format)'"
    case .malformedAuthenticatorData: return "authenticatorData is malformed"
    case .rpIDMismatch: return "The relying party id hash does not match"
    case .userNotPresent: return "The user presence flag is not set"
    case .userNotVerified: return "The user verification flag is not set"
    case .missingCredential: return "The authenticator data has no attested credential"
    case .unsupportedKey: return "The credential public key is not an ES256 P-256 key"
    case .badSignature: return "The assertion signature is invalid"
    case .signCountNotIncreased(let stored, let received):
      return "The signature counter did not increase (stored \(stored), received \(received))"
    }
  }
}
