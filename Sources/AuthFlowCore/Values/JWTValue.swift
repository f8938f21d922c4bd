import Foundation

/// A compact JWS as a runtime value: the raw token (secret) with its decoded header and claims.
public struct JWTValue: Sendable, Hashable {
  /// The compact serialization. Secret.
  public let raw: String
  public let header: [String: Value]
  public let claims: [String: Value]
  /// Set by whoever verified the signature against the tenant's keys; nil when not checked.
  public var signatureValid: Bool?

  /// Decodes a compact JWS without verifying it. Returns nil when `raw` is not a JWT, or any of
  /// its three segments (the signature too) is not canonical base64url (RFC 7515 §2).
  public init?(raw: String, signatureValid: Bool? = nil) {
    let parts = raw.splitting(atASCII: UInt8(ascii: "."))
    guard parts.count == 3, Base64URL.isCanonical(parts[2]),
      let headerData = Base64URL.decode(parts[0]),
      let claimsData = Base64URL.decode(parts[1]),
      case .object(let header)? = try? Value(json: headerData),
      case .object(let claims)? = try? Value(json: claimsData)
    else { return nil }
    self.raw = raw
    self.header = header
    self.claims = claims
    self.signatureValid = signatureValid
  }

  public func member(_ name: String) -> Value? {
    switch name {
    case "header": return .object(header)
    case "claims": return .object(claims)
    case "signature_valid": return signatureValid.map(Value.bool) ?? .null
    case "raw": return .secret(.string(raw))
    default: return nil
    }
  }
}
