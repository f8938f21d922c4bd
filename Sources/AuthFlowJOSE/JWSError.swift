/// Why a compact JWS was rejected, with the context a report needs (the `kid`, the `alg`).
public struct JWSError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The closed set of reasons, for callers that branch on them.
  public enum Reason: Sendable, Hashable {
    case malformed
    case duplicateMember
    case algorithmNone
    case unsupportedAlgorithm
    case missingKeyID
    case unknownKeyID
    case algorithmKeyMismatch
    case keyNotForSignatures
    case invalidKey
    case invalidSignature
    case signingFailed
    /// No `kid`, and no key of the set fits the algorithm.
    case noKeyForAlgorithm
    /// No `kid`, and several keys of the set fit the algorithm (OIDC Core §10.1).
    case ambiguousKey
    /// An HMAC algorithm without the shared secret to check it with.
    case noSecret
  }

  private enum Backing: Sendable, Hashable {
    case malformed(String)
    case duplicateMember(part: String)
    case algorithmNone
    case unsupportedAlgorithm(String)
    case missingKeyID
    case unknownKeyID(String)
    case algorithmKeyMismatch(alg: String, kty: String, keyAlg: String?)
    case keyNotForSignatures(kid: String, why: String)
    case invalidKey(kid: String?, String)
    case invalidSignature(kid: String)
    case signingFailed(String)
    case noKeyForAlgorithm(String)
    case ambiguousKey(String, count: Int)
    case noSecret(String)
  }

  private let backing: Backing

  private init(_ backing: Backing) {
    self.backing = backing
  }

  public var reason: Reason {
    switch backing {
    case .malformed: return .malformed
    case .duplicateMember: return .duplicateMember
    case .algorithmNone: return .algorithmNone
    case .unsupportedAlgorithm: return .unsupportedAlgorithm
    case .missingKeyID: return .missingKeyID
    case .unknownKeyID: return .unknownKeyID
    case .algorithmKeyMismatch: return .algorithmKeyMismatch
    case .keyNotForSignatures: return .keyNotForSignatures
    case .invalidKey: return .invalidKey
    case .invalidSignature: return .invalidSignature
    case .signingFailed: return .signingFailed
    case .noKeyForAlgorithm: return .noKeyForAlgorithm
    case .ambiguousKey: return .ambiguousKey
    case .noSecret: return .noSecret
    }
  }

  /// The `kid` involved, when there is one.
  public var keyID: String? {
    switch backing {
    case .unknownKeyID(let kid), .invalidSignature(let kid), .keyNotForSignatures(let kid, _): return kid
    case .invalidKey(let kid, _): return kid
    default: return nil
    }
  }

  /// What is wrong with the key, for an ``Reason/invalidKey`` error; nil for the others.
  public var detail: String? {
    if case .invalidKey(_, let why) = backing { return why }
    return nil
  }

  public var description: String {
    switch backing {
    case .malformed(let why): return "malformed JWS: \(why)"
    case .duplicateMember(let part): return "the JWS \(part) repeats a member name (RFC 7515 §5.2)"
    case .algorithmNone: return "unsecured JWS (alg \"none\") is not accepted"
    case .unsupportedAlgorithm(let alg): return "unsupported JWS algorithm \"\(alg)\""
    case .missingKeyID: return "the JWS header has no key ID (kid)"
    case .unknownKeyID(let kid): return "no key with kid \"\(kid)\" in the key set"
    case .algorithmKeyMismatch(let alg, let kty, let keyAlg):
      let declared = keyAlg.map { " for \($0)" } ?? ""
      return "the header algorithm \"\(alg)\" does not match the key (kty \"\(kty)\"\(declared))"
    case .keyNotForSignatures(let kid, let why): return "the key \"\(kid)\" \(why)"
    case .invalidKey(let kid, let why): return "invalid key\(kid.map { " \"\($0)\"" } ?? ""): \(why)"
    case .invalidSignature(let kid): return "invalid signature (kid \"\(kid)\")"
    case .signingFailed(let why): return "signing failed: \(why)"
    case .noKeyForAlgorithm(let alg): return "the header has no kid and the key set has no key for \(alg)"
    case .ambiguousKey(let alg, let count):
      return "the header has no kid and \(count) keys of the set fit \(alg): with several keys a kid is required "
        + "(OpenID Connect Core §10.1)"
    case .noSecret(let alg): return "\(alg) is verified with the client secret, and the client has none"
    }
  }

  static func malformed(_ why: String) -> JWSError { JWSError(.malformed(why)) }
  static func duplicateMember(part: String) -> JWSError { JWSError(.duplicateMember(part: part)) }
  static let algorithmNone = JWSError(.algorithmNone)
  static func unsupportedAlgorithm(_ alg: String) -> JWSError { JWSError(.unsupportedAlgorithm(alg)) }
  static let missingKeyID = JWSError(.missingKeyID)
  static func unknownKeyID(_ kid: String) -> JWSError { JWSError(.unknownKeyID(kid)) }
  static func algorithmKeyMismatch(alg: String, kty: String, keyAlg: String?) -> JWSError {
    JWSError(.algorithmKeyMismatch(alg: alg, kty: kty, keyAlg: keyAlg))
  }
  static func keyNotForSignatures(kid: String, _ why: String) -> JWSError {
    JWSError(.keyNotForSignatures(kid: kid, why: why))
  }
  static func invalidKey(kid: String?, _ why: String) -> JWSError { JWSError(.invalidKey(kid: kid, why)) }
  static func invalidSignature(kid: String) -> JWSError { JWSError(.invalidSignature(kid: kid)) }
  static func signingFailed(_ why: String) -> JWSError { JWSError(.signingFailed(why)) }
  static func noKeyForAlgorithm(_ alg: String) -> JWSError { JWSError(.noKeyForAlgorithm(alg)) }
  static func ambiguousKey(_ alg: String, count: Int) -> JWSError { JWSError(.ambiguousKey(alg, count: count)) }
  static func noSecret(_ alg: String) -> JWSError { JWSError(.noSecret(alg)) }
}
