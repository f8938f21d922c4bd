public import AuthFlowCore
import Crypto
public import Foundation
import _CryptoExtras

/// A private key that signs compact JWS: RSA (RS256/384/512, PS256/384/512), an EC key on P-256,
/// P-384 or P-521 (ES256/384/512), Ed25519 (EdDSA) or an HMAC secret (HS256/384/512), all on
/// swift-crypto.
///
/// The key is parsed once; the default protected header is encoded once, so signing a token costs one
/// JSON encoding of the claims and one signature.
public struct SigningKey: Sendable {
  private enum Material: Sendable {
    case rsa(_RSA.Signing.PrivateKey)
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case p521(P521.Signing.PrivateKey)
    case ed25519(Curve25519.Signing.PrivateKey)
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

  /// A fresh key for `algorithm`: RSA-2048 for RS/PS, a key on the algorithm's curve for ES and
  /// EdDSA. `kid` defaults to the RFC 7638 thumbprint. HMAC algorithms take a secret
  /// (``init(hmacSecret:algorithm:kid:)``), not a generated key.
  public static func generate(_ algorithm: JWSAlgorithm, kid: String? = nil) throws -> SigningKey {
    switch algorithm.keyType {
    case "RSA": return try generateRSA(kid: kid, algorithm: algorithm)
    case "EC": return try generateEC(algorithm, kid: kid)
    case "OKP": return generateEd25519(kid: kid)
    default:
      throw JWSError.invalidKey(kid: kid, "\(algorithm.rawValue) signs with a shared secret, not a generated key")
    }
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
    guard algorithm.keyType == "RSA" else {
      throw JWSError.invalidKey(kid: kid, "an RSA key signs RS256/384/512 or PS256/384/512, not \(algorithm.rawValue)")
    }
    let primitives = try key.publicKey.getKeyPrimitives()
    let jwk = JWK(
      kty: "RSA", n: Base64URL.encode(primitives.modulus), e: Base64URL.encode(primitives.publicExponent))
    self.init(material: .rsa(key), algorithm: algorithm, kid: kid, jwk: jwk)
  }

  /// A fresh P-256 key for ES256.
  public static func generateES256(kid: String? = nil) -> SigningKey {
    SigningKey(p256: P256.Signing.PrivateKey(), kid: kid)
  }

  /// A fresh EC key for ES256, ES384 or ES512 (P-256, P-384, P-521).
  public static func generateEC(_ algorithm: JWSAlgorithm, kid: String? = nil) throws -> SigningKey {
    switch algorithm {
    case .es256: return SigningKey(p256: P256.Signing.PrivateKey(), kid: kid)
    case .es384:
      let key = P384.Signing.PrivateKey()
      return SigningKey(
        material: .p384(key), algorithm: .es384, kid: kid,
        jwk: ecJWK(curve: "P-384", point: key.publicKey.x963Representation, size: 48))
    case .es512:
      let key = P521.Signing.PrivateKey()
      return SigningKey(
        material: .p521(key), algorithm: .es512, kid: kid,
        jwk: ecJWK(curve: "P-521", point: key.publicKey.x963Representation, size: 66))
    default: throw JWSError.invalidKey(kid: kid, "\(algorithm.rawValue) is not an ECDSA algorithm")
    }
  }

  /// A P-256 key for ES256 from PEM.
  public init(es256PEM pem: String, kid: String? = nil) throws {
    self.init(p256: try P256.Signing.PrivateKey(pemRepresentation: pem), kid: kid)
  }

  private init(p256 key: P256.Signing.PrivateKey, kid: String?) {
    self.init(
      material: .p256(key), algorithm: .es256, kid: kid,
      jwk: Self.ecJWK(curve: "P-256", point: key.publicKey.x963Representation, size: 32))
  }

  /// The public JWK of an uncompressed point `0x04 || x || y`.
  private static func ecJWK(curve: String, point: Data, size: Int) -> JWK {
    let x = point.dropFirst().prefix(size)
    let y = point.dropFirst(1 + size)
    return JWK(kty: "EC", crv: curve, x: Base64URL.encode(x), y: Base64URL.encode(y))
  }

  /// A fresh Ed25519 key for EdDSA (RFC 8037).
  public static func generateEd25519(kid: String? = nil) -> SigningKey {
    let key = Curve25519.Signing.PrivateKey()
    let jwk = JWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(key.publicKey.rawRepresentation))
    return SigningKey(material: .ed25519(key), algorithm: .edDSA, kid: kid, jwk: jwk)
  }

  /// An HMAC secret (HS256, HS384 or HS512: for an ID token, the client secret's UTF-8 bytes,
  /// OIDC Core §10.1). Such a key has no public JWK.
  public init(hmacSecret secret: some DataProtocol, algorithm: JWSAlgorithm = .hs256, kid: String? = nil) {
    let chosen = algorithm.isSymmetric ? algorithm : .hs256
    self.init(material: .hmac(SymmetricKey(data: Data(secret))), algorithm: chosen, kid: kid, jwk: nil)
  }

  /// The RSA private key as PKCS#8 PEM (nil for other key types), to persist a generated key.
  public var rsaPEM: String? {
    if case .rsa(let key) = material { return key.pkcs8PEMRepresentation }
    return nil
  }

  /// Signs `claims` as a compact JWS. The header is `{"alg","kid","typ":"JWT"}` plus `extra`
  /// (which may override `typ` but not `alg` or `kid`). `includeKeyID: false` leaves `kid` out,
  /// as a provider with one key may (OIDC Core §10.1).
  public func sign(
    header extra: [String: Value] = [:], claims: [String: Value], includeKeyID: Bool = true
  ) throws
    -> String
  {
    var token = headerSegment(extra: extra, includeKeyID: includeKeyID)
    token += "."
    token += Base64URL.encode(Data(Value.object(claims).jsonText(revealSecrets: true).utf8))
    let signature = try signature(for: Data(token.utf8))
    token += "."
    token += Base64URL.encode(signature)
    return token
  }

  /// The raw JWS signature over `input` (for ECDSA, the fixed-size `r || s` of RFC 7518 §3.4).
  public func signature(for input: Data) throws -> Data {
    switch material {
    case .rsa(let key):
      let padding: _RSA.Signing.Padding = algorithm.rawValue.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
      switch algorithm.hashBits {
      case 384: return try key.signature(for: SHA384.hash(data: input), padding: padding).rawRepresentation
      case 512: return try key.signature(for: SHA512.hash(data: input), padding: padding).rawRepresentation
      default: return try key.signature(for: SHA256.hash(data: input), padding: padding).rawRepresentation
      }
    case .p256(let key): return try key.signature(for: SHA256.hash(data: input)).rawRepresentation
    case .p384(let key): return try key.signature(for: SHA384.hash(data: input)).rawRepresentation
    case .p521(let key): return try key.signature(for: SHA512.hash(data: input)).rawRepresentation
    case .ed25519(let key): return try key.signature(for: input)
    case .hmac(let key):
      switch algorithm {
      case .hs384: return Data(HMAC<SHA384>.authenticationCode(for: input, using: key))
      case .hs512: return Data(HMAC<SHA512>.authenticationCode(for: input, using: key))
      default: return Data(HMAC<SHA256>.authenticationCode(for: input, using: key))
      }
    }
  }

  private func headerSegment(extra: [String: Value], includeKeyID: Bool) -> String {
    guard !extra.isEmpty || !includeKeyID else { return defaultHeaderSegment }
    var header: [String: Value] = ["typ": .string("JWT")]
    header.merge(extra) { _, new in new }
    header["alg"] = .string(algorithm.rawValue)
    header["kid"] = includeKeyID ? .string(kid) : nil
    return SigningKey.encodeHeader(header)
  }

  private static func encodeHeader(_ header: [String: Value]) -> String {
    Base64URL.encode(Data(Value.object(header).jsonText(revealSecrets: true).utf8))
  }

  /// The RFC 7638 JWK thumbprint (SHA-256, base64url) of a public RSA, EC or OKP key.
  public static func thumbprint(of jwk: JWK) -> String {
    let members: [String: Value]
    switch jwk.kty {
    case "EC":
      members = [
        "crv": .string(jwk.crv ?? ""), "kty": .string("EC"), "x": .string(jwk.x ?? ""), "y": .string(jwk.y ?? ""),
      ]
    case "OKP":
      members = ["crv": .string(jwk.crv ?? ""), "kty": .string("OKP"), "x": .string(jwk.x ?? "")]
    default:
      members = ["e": .string(jwk.e ?? ""), "kty": .string(jwk.kty), "n": .string(jwk.n ?? "")]
    }
    return Base64URL.encode(SHA256.hash(data: Data(Value.object(members).jsonText(revealSecrets: true).utf8)))
  }
}
