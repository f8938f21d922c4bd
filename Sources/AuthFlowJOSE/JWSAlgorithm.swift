/// The JWS `alg` values authflow signs and verifies (RFC 7518 §3.1).
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable, Codable {
  /// RSASSA-PKCS1-v1_5 with SHA-256: what Auth0 signs ID tokens with.
  case rs256 = "RS256"
  /// RSASSA-PSS with SHA-256 and MGF1.
  case ps256 = "PS256"
  /// ECDSA on P-256 with SHA-256.
  case es256 = "ES256"
  /// HMAC with SHA-256 (shared secret; never verified against a public JWK set).
  case hs256 = "HS256"
  /// Unsecured JWS: never accepted by the verifier.
  case none

  /// The JWK `kty` a key for this algorithm has; nil for `none`.
  public var keyType: String? {
    switch self {
    case .rs256, .ps256: return "RSA"
    case .es256: return "EC"
    case .hs256: return "oct"
    case .none: return nil
    }
  }
}
