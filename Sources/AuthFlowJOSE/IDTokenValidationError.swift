/// Why an ID token failed validation, with Auth0.swift's exact message (docs/protocol.md §5) for the
/// checks Auth0.swift makes, and an `ID token rejected: …` message naming the rule for the OIDC
/// Core / RFC 7515 / RFC 8725 checks it omits (docs/id-token-validation.md).
public struct IDTokenValidationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which check failed, in the order they run.
  public enum Check: String, Sendable, Hashable {
    case missing, size, decode, duplicate, crit, typ, alg, kid, signature, iss, sub, aud, exp, nbf, iat
    case nonce, azp, acr, claims
    case atHash = "at_hash"
    case cHash = "c_hash"
    case keyUse = "key_use"
    case keyAlg = "key_alg"
    case authTime = "auth_time"
    case orgID = "org_id"
    case orgName = "org_name"
  }

  /// The failed check.
  public let check: Check
  /// The message, exactly as Auth0.swift's `debugDescription` words it.
  public let message: String

  init(_ check: Check, _ message: String) {
    self.check = check
    self.message = message
  }

  public var description: String { message }

  /// True when the token failed before its signature was known to be good (the token, its header
  /// or the key), so its `signature_valid` is false.
  public var isSignatureFailure: Bool {
    [.size, .decode, .duplicate, .crit, .typ, .alg, .kid, .keyUse, .keyAlg, .signature].contains(check)
  }

  /// The largest token accepted, in bytes (RFC 8725 §3.9 asks for limits on untrusted input).
  public static let maximumTokenSize = 64 * 1024

  /// Web Auth's wrapper message around any of these.
  public static let webAuthWrapperMessage = "The ID token validation performed after authentication failed."

  public static let missing = IDTokenValidationError(
    .missing, "ID token validation was requested but the response did not include an ID token")
  public static let decode = IDTokenValidationError(.decode, "ID token could not be decoded")
  public static func oversized(bytes: Int) -> IDTokenValidationError {
    IDTokenValidationError(
      .size, "ID token rejected: it is \(bytes) bytes, more than the \(maximumTokenSize) authflow accepts")
  }
  public static func duplicateMember(part: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .duplicate, "ID token rejected: its \(part) repeats a member name (RFC 7515 §5.2, RFC 7519 §4)")
  }
  public static func unsupportedCritical(_ names: [String]) -> IDTokenValidationError {
    IDTokenValidationError(
      .crit,
      "ID token rejected: the header marks \(names.map { "'\($0)'" }.joined(separator: ", ")) critical (crit), which authflow does not understand (RFC 7515 §4.1.11)"
    )
  }
  public static let malformedCritical = IDTokenValidationError(
    .crit, "ID token rejected: the header's crit is not a non-empty array of strings (RFC 7515 §4.1.11)")
  public static func unexpectedType(_ typ: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .typ, "ID token rejected: the header's typ is \"\(typ)\", not \"JWT\" (RFC 8725 §3.11, RFC 7519 §5.1)")
  }
  public static func keyNotForSignatures(kid: String, why: String) -> IDTokenValidationError {
    IDTokenValidationError(.keyUse, "ID token rejected: the JWKS key '\(kid)' \(why)")
  }
  public static func keyAlgorithmMismatch(kid: String, keyAlg: String, alg: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .keyAlg,
      "ID token rejected: the JWKS key '\(kid)' is for \(keyAlg), not the token's \(alg) (RFC 8725 §3.1)")
  }
  public static func keyTypeMismatch(kid: String, kty: String, alg: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .keyAlg, "ID token rejected: the JWKS key '\(kid)' has kty \"\(kty)\", which cannot verify \(alg)")
  }
  public static func unsupportedAlgorithm(_ alg: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .alg, "Signature algorithm of \"\(alg)\" is not supported. Expected the ID token to be signed with \"RS256\"")
  }
  public static func missingPublicKey(kid: String) -> IDTokenValidationError {
    IDTokenValidationError(.kid, "Could not find a public key for Key ID (kid) \"\(kid)\"")
  }
  /// The JWKS has a key with the token's `kid`, but it is malformed (not base64url, not a point on
  /// the curve, an unsupported `kty`): the tenant's JWKS is wrong, not the token's key id.
  public static func unusablePublicKey(kid: String, why: String) -> IDTokenValidationError {
    IDTokenValidationError(.kid, "ID token rejected: the JWKS key '\(kid)' is malformed: \(why) (RFC 7518 §6)")
  }
  public static let invalidSignature = IDTokenValidationError(.signature, "Invalid ID token signature")
  public static let missingIssuer = IDTokenValidationError(
    .iss, "Issuer (iss) claim must be a string present in the ID token")
  public static func mismatchedIssuer(actual: String, expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .iss, "Issuer (iss) claim mismatch in the ID token, expected (\(expected)), found (\(actual))")
  }
  public static let missingSubject = IDTokenValidationError(
    .sub, "Subject (sub) claim must be a string present in the ID token")
  public static let missingAudience = IDTokenValidationError(
    .aud, "Audience (aud) claim must be a string or array of strings present in the ID token")
  public static func mismatchedAudience(actual: String, expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .aud, "Audience (aud) claim mismatch in the ID token; expected (\(expected)) but found (\(actual))")
  }
  public static func mismatchedAudience(actual: [String], expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .aud,
      "Audience (aud) claim mismatch in the ID token; expected (\(expected)) but was not one of (\(actual.joined(separator: ", ")))"
    )
  }
  public static let missingExpiration = IDTokenValidationError(
    .exp, "Expiration time (exp) claim must be a number present in the ID token")
  public static func pastExpiration(now: Double, expiration: Double) -> IDTokenValidationError {
    IDTokenValidationError(
      .exp,
      "Expiration time (exp) claim error in the ID token; current time (\(now)) is after expiration time (\(expiration))"
    )
  }
  public static func futureNotBefore(now: Double, notBefore: Double) -> IDTokenValidationError {
    IDTokenValidationError(
      .nbf,
      "ID token rejected: Not Before (nbf) is in the future; current time (\(now)) is before not-before time minus leeway (\(notBefore)) (RFC 7519 §4.1.5)"
    )
  }
  public static let malformedNotBefore = IDTokenValidationError(
    .nbf, "ID token rejected: Not Before (nbf) claim must be a number when present (RFC 7519 §4.1.5)")
  public static func futureIssuedAt(now: Double, issuedAt: Double) -> IDTokenValidationError {
    IDTokenValidationError(
      .iat,
      "ID token rejected: Issued At (iat) is in the future; current time (\(now)) is before issued-at time minus leeway (\(issuedAt)) (OIDC Core §3.1.3.7)"
    )
  }
  public static let missingIssuedAt = IDTokenValidationError(
    .iat, "Issued At (iat) claim must be a number present in the ID token")
  public static let missingNonce = IDTokenValidationError(
    .nonce, "Nonce (nonce) claim must be a string present in the ID token")
  public static func mismatchedNonce(actual: String, expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .nonce, "Nonce (nonce) claim value mismatch in the ID token; expected (\(expected)), found (\(actual))")
  }
  public static let missingAuthorizedParty = IDTokenValidationError(
    .azp,
    "Authorized Party (azp) claim must be a string present in the ID token when Audience (aud) claim has multiple values"
  )
  public static func mismatchedAuthorizedParty(actual: String, expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .azp, "Authorized Party (azp) claim mismatch in the ID token; expected (\(expected)), found (\(actual))")
  }
  public static let missingAuthTime = IDTokenValidationError(
    .authTime,
    "Authentication Time (auth_time) claim must be a number present in the ID token when Max Age (max_age) is specified"
  )
  public static func pastLastAuthentication(now: Double, lastAuthTime: Double) -> IDTokenValidationError {
    IDTokenValidationError(
      .authTime,
      "Authentication Time (auth_time) claim in the ID token indicates that too much time has passed since the last user authentication. Current time (\(now)) is after last auth time (\(lastAuthTime))"
    )
  }
  public static let missingOrganizationID = IDTokenValidationError(
    .orgID, "Organization Id (org_id) claim must be a string present in the ID token")
  public static func mismatchedOrganizationID(actual: String, expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .orgID, "Organization Id (org_id) claim value mismatch in the ID token; expected (\(expected)), found (\(actual))"
    )
  }
  public static let missingOrganizationName = IDTokenValidationError(
    .orgName, "Organization Name (org_name) claim must be a string present in the ID token")
  public static func mismatchedOrganizationName(actual: String, expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .orgName,
      "Organization Name (org_name) claim value mismatch in the ID token; expected (\(expected)), found (\(actual))")
  }
}
