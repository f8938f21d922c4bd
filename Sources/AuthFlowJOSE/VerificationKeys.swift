public import AuthFlowCore
import Crypto
import Foundation
import _CryptoExtras

/// A JWK set with every key parsed once, ready to verify signatures. Build it once per JWKS
/// document and reuse it.
///
/// Verifies every algorithm of ``JWSAlgorithm/signing`` with a public key: RS256/384/512,
/// PS256/384/512, ES256/384/512 (P-256, P-384, P-521) and EdDSA (Ed25519); the HMAC algorithms
/// with a shared secret given at verification (an ID token's client secret), never with a key of
/// the set. The key is the one the header's `kid` names, or, without a `kid`, the only key of the
/// set that fits the algorithm (OIDC Core §10.1).
public struct VerificationKeys: Sendable {
  private enum PublicKey: Sendable {
    case rsa(_RSA.Signing.PublicKey)
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)
    case invalid(String)
  }

  private struct Entry: Sendable {
    var jwk: JWK
    var key: PublicKey
  }

  /// Every key, in the set's order.
  private let entries: [Entry]
  /// The first key of each `kid`.
  private let byKeyID: [String: Int]
  /// The set the keys came from.
  public let jwks: JWKSet
  /// What the JWKS document breaks (``JWKSRules``), when the set was read from one.
  public let documentProblems: [JWKSRules.Problem]

  /// Parses every key of the JWKS `document` and judges it (``JWKSRules``); nil when it has no
  /// `keys` array.
  public init?(document: Value) {
    guard let set = JWKSet(document: document) else { return nil }
    self.init(set, problems: JWKSRules.problems(in: document))
  }

  /// Parses every key of `jwks`. Keys that cannot be parsed are kept and fail only when selected.
  public init(_ jwks: JWKSet, problems: [JWKSRules.Problem] = []) {
    self.jwks = jwks
    self.documentProblems = problems
    var entries: [Entry] = []
    var byKeyID: [String: Int] = [:]
    for jwk in jwks.keys {
      if let kid = jwk.kid, byKeyID[kid] == nil { byKeyID[kid] = entries.count }
      entries.append(Entry(jwk: jwk, key: VerificationKeys.parse(jwk)))
    }
    self.entries = entries
    self.byKeyID = byKeyID
  }

  /// True when a key with this `kid` is in the set.
  public func contains(kid: String) -> Bool { byKeyID[kid] != nil }

  /// The JWK with this `kid`, when the set has one.
  public func jwk(kid: String) -> JWK? { byKeyID[kid].map { entries[$0].jwk } }

  /// The keys of the set that may verify `algorithm` (RFC 7517 §4.2–4.4, RFC 8725 §3.1): the
  /// algorithm's `kty` (and curve), its `alg` when the key declares one, for signatures.
  public func candidates(for algorithm: JWSAlgorithm) -> [JWK] {
    entries.map(\.jwk).filter { Self.fits($0, algorithm) }
  }

  /// Whether `jwk` may verify `algorithm`.
  public static func fits(_ jwk: JWK, _ algorithm: JWSAlgorithm) -> Bool {
    guard jwk.kty == algorithm.keyType, notForSignatures(jwk) == nil else { return false }
    if let curve = algorithm.curve, jwk.crv != curve { return false }
    return jwk.alg.map { $0 == algorithm.rawValue } ?? true
  }

  /// The key a token signed with `algorithm` selects: the one its `kid` names, or, without a
  /// `kid`, the only key that fits the algorithm. Throws when there is none, or, without a `kid`,
  /// more than one (OIDC Core §10.1: with several keys, `kid` MUST be given).
  public func select(kid: String?, algorithm: JWSAlgorithm) throws(JWSError) -> JWK {
    entries[try selectIndex(kid: kid, algorithm: algorithm)].jwk
  }

  private func selectIndex(kid: String?, algorithm: JWSAlgorithm) throws(JWSError) -> Int {
    if let kid {
      guard let index = byKeyID[kid] else { throw .unknownKeyID(kid) }
      return index
    }
    let fitting = entries.indices.filter { Self.fits(entries[$0].jwk, algorithm) }
    guard fitting.count == 1, let only = fitting.first else {
      throw fitting.isEmpty
        ? .noKeyForAlgorithm(algorithm.rawValue) : .ambiguousKey(algorithm.rawValue, count: fitting.count)
    }
    return only
  }

  /// Verifies a compact JWS: `alg` must not be `none`, the selected key's `kty` (and `alg`, when
  /// the JWK declares one) must agree with the header, and the signature must verify. `secret`
  /// keys the HMAC algorithms (an ID token's client secret); without it they fail.
  @discardableResult
  public func verify(_ token: String, secret: String? = nil) throws(JWSError) -> CompactJWS {
    let jws = try CompactJWS(parsing: token)
    try verify(jws, secret: secret)
    return jws
  }

  /// Verifies an already parsed JWS.
  public func verify(_ jws: CompactJWS, secret: String? = nil) throws(JWSError) {
    guard let algName = jws.algorithmName else { throw .malformed("the header has no alg") }
    guard let algorithm = JWSAlgorithm(rawValue: algName) else { throw .unsupportedAlgorithm(algName) }
    if algorithm == .none { throw .algorithmNone }
    if algorithm.isSymmetric {
      guard let secret else { throw .noSecret(algName) }
      let expected = SigningKey(hmacSecret: Data(secret.utf8), algorithm: algorithm)
      let signature = (try? expected.signature(for: jws.signingInput)) ?? Data()
      guard signature.count == jws.signature.count, RandomToken.constantTimeEquals(signature, jws.signature) else {
        throw .invalidSignature(kid: jws.keyID ?? "")
      }
      return
    }
    let entry = entries[try selectIndex(kid: jws.keyID, algorithm: algorithm)]
    let jwk = entry.jwk
    let kid = jwk.kid ?? ""
    if let why = VerificationKeys.notForSignatures(jwk) { throw .keyNotForSignatures(kid: kid, why) }
    if algorithm.keyType != jwk.kty || (jwk.alg.map { $0 != algName } ?? false) {
      throw .algorithmKeyMismatch(alg: algName, kty: jwk.kty, keyAlg: jwk.alg)
    }
    guard try Self.isValid(jws.signature, of: jws.signingInput, key: entry.key, algorithm: algorithm, kid: kid) else {
      throw .invalidSignature(kid: kid)
    }
  }

  private static func isValid(
    _ signature: Data, of input: Data, key: PublicKey, algorithm: JWSAlgorithm, kid: String
  ) throws(JWSError) -> Bool {
    switch (key, algorithm.curve) {
    case (.invalid(let why), _):
      throw .invalidKey(kid: kid, why)
    case (.rsa(let key), nil):
      let padding: _RSA.Signing.Padding = algorithm.rawValue.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
      let rsa = _RSA.Signing.RSASignature(rawRepresentation: signature)
      switch algorithm.hashBits {
      case 384: return key.isValidSignature(rsa, for: SHA384.hash(data: input), padding: padding)
      case 512: return key.isValidSignature(rsa, for: SHA512.hash(data: input), padding: padding)
      default: return key.isValidSignature(rsa, for: SHA256.hash(data: input), padding: padding)
      }
    case (.p256(let key), "P-256"):
      guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
      return key.isValidSignature(parsed, for: SHA256.hash(data: input))
    case (.p384(let key), "P-384"):
      guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
      return key.isValidSignature(parsed, for: SHA384.hash(data: input))
    case (.p521(let key), "P-521"):
      guard let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
      return key.isValidSignature(parsed, for: SHA512.hash(data: input))
    case (.ed25519(let key), "Ed25519"):
      return key.isValidSignature(signature, for: input)
    default:
      throw .algorithmKeyMismatch(alg: algorithm.rawValue, kty: "", keyAlg: nil)
    }
  }

  /// Why `jwk` may not verify signatures (RFC 7517 §4.2 `use`, RFC 7517 §4.3 `key_ops`), or nil when it may.
  public static func notForSignatures(_ jwk: JWK) -> String? {
    if let use = jwk.use, use != "sig" {
      return use == "enc"
        ? "is for encryption (use: enc), not signatures (RFC 7517 §4.2)"
        : "has use \"\(use)\", not \"sig\" (RFC 7517 §4.2)"
    }
    if let ops = jwk.keyOps, !ops.contains("verify") {
      return "has key_ops [\(ops.joined(separator: ", "))], which do not include verify (RFC 7517 §4.3)"
    }
    return nil
  }

  /// Why `jwk` cannot be used to verify (malformed members, a point off its curve, an unknown
  /// `kty`), or nil when it can.
  public static func unusable(_ jwk: JWK) -> String? {
    if case .invalid(let why) = parse(jwk) { return why }
    return nil
  }

  /// The sizes of an EC curve's coordinates, by `crv`.
  private static let coordinateSizes = ["P-256": 32, "P-384": 48, "P-521": 66]

  private static func parse(_ jwk: JWK) -> PublicKey {
    switch jwk.kty {
    case "RSA":
      guard let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode) else {
        return .invalid("n and e must be base64url")
      }
      do {
        return .rsa(try _RSA.Signing.PublicKey(n: n, e: e))
      } catch {
        return .invalid("not a usable RSA public key")
      }
    case "EC":
      guard let curve = jwk.crv, let size = coordinateSizes[curve] else {
        return .invalid("crv must be P-256, P-384 or P-521")
      }
      guard let x = jwk.x.flatMap(Base64URL.decode), let y = jwk.y.flatMap(Base64URL.decode), x.count == size,
        y.count == size
      else { return .invalid("x and y must be base64url, \(size) bytes each on \(curve)") }
      let point = Data([0x04]) + x + y
      do {
        switch curve {
        case "P-256": return .p256(try P256.Signing.PublicKey(x963Representation: point))
        case "P-384": return .p384(try P384.Signing.PublicKey(x963Representation: point))
        default: return .p521(try P521.Signing.PublicKey(x963Representation: point))
        }
      } catch {
        return .invalid("not a point on \(curve)")
      }
    case "OKP":
      guard jwk.crv == "Ed25519" else { return .invalid("only the Ed25519 curve is supported for OKP keys") }
      guard let x = jwk.x.flatMap(Base64URL.decode), x.count == 32 else {
        return .invalid("x must be base64url, 32 bytes")
      }
      do {
        return .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
      } catch {
        return .invalid("not an Ed25519 public key")
      }
    default:
      return .invalid("unsupported kty \"\(jwk.kty)\"")
    }
  }
}

/// Verifies compact JWS against a JWK set, parsed once (see `VerificationKeys`).
public struct JWSVerifier: Sendable {
  /// The parsed keys.
  public let keys: VerificationKeys

  public init(jwks: JWKSet) {
    self.keys = VerificationKeys(jwks)
  }

  public init(keys: VerificationKeys) {
    self.keys = keys
  }

  /// Verifies `token` and returns it decoded; throws a `JWSError` with a distinct reason otherwise.
  @discardableResult
  public func verify(_ token: String) throws(JWSError) -> CompactJWS {
    try keys.verify(token)
  }
}
