public import AuthFlowCore

/// What a provider's JWK set must be, as the OpenID Foundation's conformance suite checks it before
/// every module (`ValidateJwksSequence`, `CheckForKeyIdInServerJWKs`,
/// `CheckDistinctKeyIdValueInServerJWKs`): public keys only, each well formed and usable, each with
/// a distinct `kid`.
public enum JWKSRules {
  /// One rule a JWK set breaks.
  public struct Problem: Sendable, Hashable {
    /// The conformance suite's condition.
    public var condition: String
    public var clause: String
    public var message: String
    /// True when the suite fails a module on it (FAILURE), false when it warns (WARNING).
    public var isFailure: Bool

    init(_ condition: String, _ clause: String, _ message: String, failure: Bool = true) {
      self.condition = condition
      self.clause = clause
      self.message = message
      self.isFailure = failure
    }

    /// Whether the problem is about the keys' ids (missing or repeated `kid`): the spec needs a
    /// `kid` only to choose among several keys (OIDC Core §10.1), so the runner warns where the
    /// suite, stricter, fails.
    public var isAboutKeyIDs: Bool {
      condition == "CheckForKeyIdInServerJWKs" || condition == "CheckDistinctKeyIdValueInServerJWKs"
    }

    /// `message (condition, clause)`.
    public var text: String { "\(message) (\(condition), \(clause))" }
  }

  /// Members that only a private or symmetric key has (RFC 7518 §6.2.2, §6.3.2, §6.4.1).
  static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]
  /// The base64url members of each key type.
  static let requiredMembers = ["RSA": ["n", "e"], "EC": ["crv", "x", "y"], "OKP": ["crv", "x"]]
  /// The curves authflow verifies with.
  static let usableCurves: Set<String> = ["P-256", "P-384", "P-521", "Ed25519"]

  /// The problems of the JWK set `document` (the JSON of `jwks_uri`), in the suite's order.
  public static func problems(in document: Value) -> [Problem] {
    guard let keys = document.member("keys")?.arrayValue else {
      return [Problem("ValidateJwksStructure", "RFC 7517 §5", "the JWK set has no keys array")]
    }
    var problems: [Problem] = []
    var seenKeyIDs: Set<String> = []
    for (index, key) in keys.enumerated() {
      let label = "key \(index + 1)"
      guard let members = key.objectValue else {
        problems.append(Problem("ValidateJwksStructure", "RFC 7517 §5", "\(label) is not a JSON object"))
        continue
      }
      let kty = members["kty"]?.stringValue
      let secret = privateMembers.filter { members[$0] != nil }
      if kty == "oct" || !secret.isEmpty {
        let what = kty == "oct" ? "a symmetric (oct) key" : "private key material (\(secret.joined(separator: ", ")))"
        problems.append(
          Problem(
            "EnsureJwksHasNoPrivateOrSymmetricKeyMaterial", "RFC 7517 §1.1", "\(label) publishes \(what)"))
      }
      guard let kty else {
        problems.append(Problem("ValidateJwksStructure", "RFC 7517 §4.1", "\(label) has no kty"))
        continue
      }
      for name in requiredMembers[kty] ?? [] {
        guard let text = members[name]?.stringValue else {
          problems.append(Problem("ValidateJwksStructure", "RFC 7518 §6", "\(label) (\(kty)) has no \(name)"))
          continue
        }
        if name != "crv", !text.unicodeScalars.allSatisfy(isBase64URL) {
          problems.append(
            Problem("ValidateJwksStructure", "RFC 7518 §6", "\(label)'s \(name) is not unpadded base64url"))
        }
      }
      switch kty {
      case "RSA", "EC", "OKP":
        let curve = members["crv"]?.stringValue
        if kty != "RSA", let curve, !usableCurves.contains(curve) {
          problems.append(
            Problem(
              "WarnOnUnusableJwksKeys", "RFC 7517 §5", "\(label) is on the curve \(curve), which authflow cannot use",
              failure: false))
        } else if let jwk = JWK(members), case .some(let why) = VerificationKeys.unusable(jwk) {
          problems.append(Problem("ParseUsableJwksKeys", "RFC 7518 §6", "\(label) cannot be used: \(why)"))
        }
      case "oct": break
      default:
        problems.append(
          Problem("WarnOnUnusableJwksKeys", "RFC 7517 §5", "\(label) has the unknown kty \(kty)", failure: false))
      }
      if let alg = members["alg"]?.stringValue, JWSAlgorithm(rawValue: alg) == nil, !encryptionAlgorithms.contains(alg)
      {
        problems.append(
          Problem(
            "WarnOnUnusableJwksKeys", "RFC 7517 §4.4", "\(label)'s alg \(alg) is no JWS or JWE algorithm",
            failure: false))
      }
      let kid = members["kid"]?.stringValue?.trimmingWhitespace() ?? ""
      if kid.isEmpty {
        problems.append(Problem("CheckForKeyIdInServerJWKs", "OpenID Connect Core §10.1", "\(label) has no kid"))
      } else if !seenKeyIDs.insert(kid).inserted {
        problems.append(
          Problem("CheckDistinctKeyIdValueInServerJWKs", "RFC 7517 §4.5", "the kid '\(kid)' names more than one key"))
      }
    }
    return problems
  }

  /// The JWE key-management algorithms a key may name (RFC 7518 §4.1).
  static let encryptionAlgorithms: Set<String> = [
    "RSA1_5", "RSA-OAEP", "RSA-OAEP-256", "RSA-OAEP-384", "RSA-OAEP-512", "A128KW", "A192KW", "A256KW", "dir",
    "ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A192KW", "ECDH-ES+A256KW", "A128GCMKW", "A192GCMKW", "A256GCMKW",
    "PBES2-HS256+A128KW", "PBES2-HS384+A192KW", "PBES2-HS512+A256KW",
  ]

  static func isBase64URL(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "A"..."Z", "a"..."z", "0"..."9", "-", "_": return true
    default: return false
    }
  }
}

extension JWK {
  /// The JWK of a JWKS member, when it has a `kty` (other members read as JWK's own).
  public init?(_ members: [String: Value]) {
    guard let kty = members["kty"]?.stringValue else { return nil }
    self.init(
      kty: kty, kid: members["kid"]?.stringValue, alg: members["alg"]?.stringValue, use: members["use"]?.stringValue,
      n: members["n"]?.stringValue, e: members["e"]?.stringValue, crv: members["crv"]?.stringValue,
      x: members["x"]?.stringValue, y: members["y"]?.stringValue,
      keyOps: members["key_ops"]?.arrayValue?.compactMap(\.stringValue))
  }
}

extension JWKSet {
  /// The keys of a JWKS document that have a `kty`, in order; nil when it has no `keys` array.
  public init?(document: Value) {
    guard let keys = document.member("keys")?.arrayValue else { return nil }
    self.init(keys: keys.compactMap { $0.objectValue.flatMap(JWK.init) })
  }
}
