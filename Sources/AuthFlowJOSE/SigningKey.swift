public import AuthFlowCore
import Crypto
public import Foundation
import _CryptoExtras

/// A private key that signs compact JWS: RSA (RS256/PS256), P-256 (ES256) or an HMAC secret (HS256).
///
/// The key is parsed once; the default protected header is encoded once, so signing a token costs one
/// JSON encoding of the claims and one signature.
public struct SigningKey: Sendable {
  private enum Material: Sendable {
    case rsa(_RSA.Signing.PrivateKey)
    case ec(P256.Signing.PrivateKey)
    case hmac(SymmetricKey)
  }

  /// The JWS algorithm this key signs with.
  public let algorithm: JWSAlgorithm
  /// The key ID put in every header and in the public JWK.
  public let kid: String
  /// The public JWK with `alg`, `use: sig` and `kid` set; nil for HMAC secrets.
  public let publicJWK: JWK?
  private let material: Material
  private let defaultHeaderSegment: String

  private init(material: Material, algorithm: JWSAlgorithm, kid: String?, jwk: JWK?) {
    let resolvedKid = kid ?? jwk.map(SigningKey.thumbprint) ?? "hmac"
    self.material = material
    self.algorithm = algorithm
    self.kid = resolvedKid
    self.publicJWK = jwk.map {
      var key = $0
      key.kid = resolvedKid
      key.alg = algorithm.rawValue
      key.use = "sig"
      return key
    }
    self.defaultHeaderSegment = SigningKey.encodeHeader(
      ["alg": .string(algorithm.rawValue), "kid": .string(resolvedKid), "typ": .string("JWT")])
  }

  /// A fresh RSA-2048 key. `kid` defaults to the RFC 7638 thumbprint.
  public static func generateRSA(kid: String? = nil, algorithm: JWSAlgorithm = .rs256) throws -> SigningKey {
    let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    return try SigningKey(rsa: key, kid: kid, algorithm: algorithm)
  }

  /// An RSA key from PEM (PKCS#1 or PKCS#8).
  public init(rsaPEM pem: String, kid: String? = nil, algorithm: JWSAlgorithm = .rs256) throws {
    try self.init(rsa: _RSA.Signing.PrivateKey(pemRepresentation: pem), kid: kid, algorithm: algorithm)
  }

  private init(rsa key: _RSA.Signing.PrivateKey, kid: String?, algorithm: JWSAlgorithm) throws {
    guard algorithm == .rs256 || algorithm == .ps256 else {
      throw JWSError.invalidKey(kid: kid, "an RSA key signs RS256 or PS256, not \(algorithm.rawValue)")
    }
    let primitives = try key.publicKey.getKeyPrimitives()
    let jwk = JWK(
      kty: "RSA", n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
    self.init(material: .rsa(key), algorithm: algorithm, kid: kid, jwk: jwk)
  }

  /// A fresh P-256 key for ES256.
  public static func generateES256(kid: String? = nil) -> SigningKey {
    SigningKey(es256: P256.Signing.PrivateKey(), kid: kid)
  }

  /// A P-256 key for ES256 from PEM.
  public init(es256PEM pem: String, kid: String? = nil) throws {
    self.init(es256: try P256.Signing.PrivateKey(pemRepresentation: pem), kid: kid)
  }

  private init(es256 key: P256.Signing.PrivateKey, kid: String?) {
    let point = key.publicKey.x963Representation  // 0x04 || x || y
    let x = point.dropFirst().prefix(32)
    let y = point.dropFirst(33)
    let jwk = JWK(kty: "EC", crv: "P-256", x: Base64URL.encode(x), y: Base64URL.encode(y))
    self.init(material: .ec(key), algorithm: .es256, kid: kid, jwk: jwk)
  }

  /// An HMAC-SHA256 secret (HS256). Such a key has no public JWK.
  public init(hmacSecret secret: some DataProtocol, kid: String? = nil) {
    self.init(material: .hmac(SymmetricKey(data: Data(secret))), algorithm: .hs256, kid: kid, jwk: nil)
  }

  /// The RSA private key as PKCS#8 PEM (nil for other key types), to persist a generated key.
  public var rsaPEM: String? {
    if case .rsa(let key) = material { return key.pkcs8PEMRepresentation }
    return nil
  }

  /// Signs `claims` as a compact JWS. The header is `{"alg","kid","typ":"JWT"}` plus `extra`
  /// (which may override `typ` but not `alg` or `kid`).
  public func sign(header extra: [String: Value] = [:], claims: [String: Value]) throws -> String {
    var token = headerSegment(extra: extra)
    token += "."
    token += Base64URL.encode(Data(Value.object(claims).jsonText(revealSecrets: true).utf8))
    let signature = try signature(for: Data(token.utf8))
    token += "."
    token += Base64URL.encode(signature)
    return token
  }

  /// The raw JWS signature over `input` (for ES256, the 64-byte `r || s`).
  public func signature(for input: Data) throws -> Data {
    switch (material, algorithm) {
    case (.rsa(let key), .ps256):
      return try key.signature(for: SHA256.hash(data: input), padding: .PSS).rawRepresentation
    case (.rsa(let key), _):
      return try key.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation
    case (.ec(let key), _):
      return try key.signature(for: SHA256.hash(data: input)).rawRepresentation
    case (.hmac(let key), _):
      return Data(HMAC<SHA256>.authenticationCode(for: input, using: key))
    }
  }

  private func headerSegment(extra: [String: Value]) -> String {
    guard !extra.isEmpty else { return defaultHeaderSegment }
    var header: [String: Value] = ["typ": .string("JWT")]
    header.merge(extra) { _, new in new }
    header["alg"] = .string(algorithm.rawValue)
    header["kid"] = .string(kid)
    return SigningKey.encodeHeader(header)
  }

  private static func encodeHeader(_ header: [String: Value]) -> String {
    Base64URL.encode(Data(Value.object(header).jsonText(revealSecrets: true).utf8))
  }

  /// The RFC 7638 JWK thumbprint (SHA-256, base64url) of a public RSA or EC key.
  public static func thumbprint(of jwk: JWK) -> String {
    let members: [String: Value]
    if jwk.kty == "EC" {
      members = [
        "crv": .string(jwk.crv ?? ""), "kty": .string("EC"), "x": .string(jwk.x ?? ""), "y": .string(jwk.y ?? ""),
      ]
    } else {
      members = ["e": .string(jwk.e ?? ""), "kty": .string(jwk.kty), "n": .string(jwk.n ?? "")]
    }
    return Base64URL.encode(SHA256.hash(data: Data(Value.object(members).jsonText(revealSecrets: true).utf8)))
  }
}
