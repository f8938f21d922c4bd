/// A public JSON Web Key (RFC 7517), as JWKS documents publish it.
///
/// Only public members are modelled: a JWK set never carries private material here.
public struct JWK: Sendable, Hashable, Codable {
  /// `RSA` or `EC`.
  public var kty: String
  public var kid: String?
  /// The algorithm the key is for. Auth0.swift requires it (`RS256`); the mock always sets it.
  public var alg: String?
  /// `sig` or absent.
  public var use: String?
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
    e: String? = nil, crv: String? = nil, x: String? = nil, y: String? = nil
  ) {
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
}

/// A JWKS document: `{"keys": [...]}`.
public struct JWKSet: Sendable, Hashable, Codable {
  public var keys: [JWK]

  public init(keys: [JWK]) {
    self.keys = keys
  }
}
