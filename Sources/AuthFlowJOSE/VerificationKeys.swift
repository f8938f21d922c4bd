import AuthFlowCore
import Crypto
import Foundation
import _CryptoExtras

/// A JWK set with every key parsed once, ready to verify signatures. Build it once per JWKS
/// document and reuse it.
public struct VerificationKeys: Sendable {
  private enum PublicKey: Sendable {
    case rsa(_RSA.Signing.PublicKey)
    case ec(P256.Signing.PublicKey)
    case invalid(String)
  }

  private struct Entry: Sendable {
    var jwk: JWK
    var key: PublicKey
  }

  private let entries: [String: Entry]
  /// The set the keys came from.
  public let jwks: JWKSet

  /// Parses every key of `jwks`. Keys that cannot be parsed are kept and fail only when selected.
  public init(_ jwks: JWKSet) {
    self.jwks = jwks
    var entries: [String: Entry] = [:]
    for jwk in jwks.keys {
      entries[jwk.kid ?? ""] = Entry(jwk: jwk, key: VerificationKeys.parse(jwk))
    }
    self.entries = entries
  }

  /// True when a key with this `kid` is in the set.
  public func contains(kid: String) -> Bool { entries[kid] != nil }

  /// Verifies a compact JWS: `alg` must not be `none`, the `kid` must select a key whose `kty` (and
  /// `alg`, when the JWK declares one) agree with the header, and the signature must verify.
  @discardableResult
  public func verify(_ token: String) throws(JWSError) -> CompactJWS {
    let jws = try CompactJWS(parsing: token)
    try verify(jws)
    return jws
  }

  /// Verifies an already parsed JWS.
  public func verify(_ jws: CompactJWS) throws(JWSError) {
    guard let algName = jws.algorithmName else { throw .malformed("the header has no alg") }
    guard let algorithm = JWSAlgorithm(rawValue: algName) else { throw .unsupportedAlgorithm(algName) }
    if algorithm == .none { throw .algorithmNone }
    guard let kid = jws.keyID else { throw .missingKeyID }
    guard let entry = entries[kid] else { throw .unknownKeyID(kid) }
    if let why = VerificationKeys.notForSignatures(entry.jwk) { throw .keyNotForSignatures(kid: kid, why) }
    if algorithm.keyType != entry.jwk.kty || (entry.jwk.alg.map { $0 != algName } ?? false) {
      throw .algorithmKeyMismatch(alg: algName, kty: entry.jwk.kty, keyAlg: entry.jwk.alg)
    }
    let digest = SHA256.hash(data: jws.signingInput)
    let valid: Bool
    switch (entry.key, algorithm) {
    case (.invalid(let why), _):
      throw .invalidKey(kid: kid, why)
    case (.rsa(let key), .rs256):
      valid = key.isValidSignature(
        _RSA.Signing.RSASignature(rawRepresentation: jws.signature), for: digest, padding: .insecurePKCS1v1_5)
    case (.rsa(let key), .ps256):
      valid = key.isValidSignature(
        _RSA.Signing.RSASignature(rawRepresentation: jws.signature), for: digest, padding: .PSS)
    case (.ec(let key), .es256):
      guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature) else {
        throw .invalidSignature(kid: kid)
      }
      valid = key.isValidSignature(signature, for: digest)
    default:
      throw .algorithmKeyMismatch(alg: algName, kty: entry.jwk.kty, keyAlg: entry.jwk.alg)
    }
    guard valid else { throw .invalidSignature(kid: kid) }
  }

  /// Why `jwk` may not verify signatures (RFC 7517 §4.2 `use`, §4.3 `key_ops`), or nil when it may.
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

  /// The JWK with this `kid`, when the set has one.
  public func jwk(kid: String) -> JWK? { entries[kid]?.jwk }

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
      guard jwk.crv == "P-256", let x = jwk.x.flatMap(Base64URL.decode), let y = jwk.y.flatMap(Base64URL.decode),
        x.count == 32, y.count == 32
      else { return .invalid("only P-256 EC keys with 32-byte x and y are supported") }
      do {
        return .ec(try P256.Signing.PublicKey(x963Representation: Data([0x04]) + x + y))
      } catch {
        return .invalid("not a point on P-256")
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
