/// The JWS `alg` values authflow signs and verifies (RFC 7518 §3.1, RFC 8037 §3.1): every
/// algorithm a conforming OpenID Provider signs ID tokens with, and `none`, which is never
/// accepted.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable, Codable {
  /// RSASSA-PKCS1-v1_5 with SHA-256: what Auth0 signs ID tokens with.
  case rs256 = "RS256"
  case rs384 = "RS384"
  case rs512 = "RS512"
  /// RSASSA-PSS with SHA-256 and MGF1.
  case ps256 = "PS256"
  case ps384 = "PS384"
  case ps512 = "PS512"
  /// ECDSA on P-256 with SHA-256.
  case es256 = "ES256"
  /// ECDSA on P-384 with SHA-384.
  case es384 = "ES384"
  /// ECDSA on P-521 with SHA-512.
  case es512 = "ES512"
  /// EdDSA with Ed25519 (RFC 8037).
  case edDSA = "EdDSA"
  /// HMAC with SHA-256: a shared secret (for an ID token, the client secret, OIDC Core §10.1);
  /// never verified against a public JWK set.
  case hs256 = "HS256"
  case hs384 = "HS384"
  case hs512 = "HS512"
  /// Unsecured JWS: never accepted by the verifier.
  case none

  /// The JWK `kty` a key for this algorithm has; nil for `none`.
  public var keyType: String? {
    switch self {
    case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: return "RSA"
    case .es256, .es384, .es512: return "EC"
    case .edDSA: return "OKP"
    case .hs256, .hs384, .hs512: return "oct"
    case .none: return nil
    }
  }

  /// The JWK `crv` of a key for this algorithm (EC and OKP keys); nil for the others.
  public var curve: String? {
    switch self {
    case .es256: return "P-256"
    case .es384: return "P-384"
    case .es512: return "P-521"
    case .edDSA: return "Ed25519"
    default: return nil
    }
  }

  /// The SHA-2 digest length in bits the algorithm signs with — and `at_hash` / `c_hash` use (OIDC
  /// Core §3.3.2.11: the hash of the ID token's `alg`; SHA-512 for EdDSA with Ed25519); nil for
  /// `none`.
  public var hashBits: Int? {
    switch self {
    case .rs256, .ps256, .es256, .hs256: return 256
    case .rs384, .ps384, .es384, .hs384: return 384
    case .rs512, .ps512, .es512, .hs512, .edDSA: return 512
    case .none: return nil
    }
  }

  /// True for the HMAC algorithms, keyed with a shared secret rather than a JWKS key.
  public var isSymmetric: Bool { keyType == "oct" }

  /// The algorithms an ID token may be signed with by a conforming provider: all but `none`.
  public static let signing: [JWSAlgorithm] = allCases.filter { $0 != .none }
}
