/// A public JSON Web Key (RFC 7517), as JWKS documents publish it.
///
/// Only public members are modelled: a JWK set never carries private material here.
public struct JWK: Sendable, Hashable, Codable {
  /// `RSA` or `EC`.
  public var kty: String
  public var kid: String?
  /// The algorithm the key is for. Auth0.swift requires it (`RS256`); the mock always sets it.
  public var alg: String?
  /// `sig`, `enc` or absent (RFC 7517 §4.2). A key for `enc` never verifies a signature.
  public var use: String?
  /// The operations the key is for (RFC 7517 §4.3); when present it must include `verify`.
  public var keyOps: [String]?
  /// RSA modulus, base64url.
  public var n: String?
  /// RSA public exponent, base64url.
  public var e: String?
  /// EC curve (`P-256`).
  public var crv: String?
  /// EC x coordinate, base64url.
  public var x: String?
  /// EC y coordinate, base64url.
  public var y: String?

  public init(
    kty: String, kid: String? = nil, alg: String? = nil, use: String? = nil, n: String? = nil,
    e: String? = nil, crv: String? = nil, x: String? = nil, y: String? = nil, keyOps: [String]? = nil
  ) {
    self.keyOps = keyOps
    self.kty = kty
    self.kid = kid
    self.alg = alg
    self.use = use
    self.n = n
    self.e = e
    self.crv = crv
    self.x = x
    self.y = y
  }

  private enum CodingKeys: String, CodingKey {
    case kty, kid, alg, use, n, e, crv, x, y
    case keyOps = "key_ops"
  }
}

/// A JWKS document: `{"keys": [...]}`.
public struct JWKSet: Sendable, Hashable, Codable {
  public var keys: [JWK]

  public init(keys: [JWK]) {
    self.keys = keys
  }
}
