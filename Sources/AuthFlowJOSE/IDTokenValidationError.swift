/// Why an ID token failed validation, with Auth0.swift's exact message (PROTOCOL §5).
public struct IDTokenValidationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which check failed, in the order they run.
  public enum Check: String, Sendable, Hashable {
    case missing, decode, alg, kid, signature, iss, sub, aud, exp, iat, nonce, azp
    case authTime = "auth_time"
    case orgID = "org_id"
    case orgName = "org_name"
  }

  /// The failed check.
  public let check: Check
  /// The message, exactly as Auth0.swift's `debugDescription` words it.
  public let message: String

  private init(_ check: Check, _ message: String) {
    self.check = check
    self.message = message
  }

  public var description: String { message }

  /// Web Auth's wrapper message around any of these.
  public static let webAuthWrapperMessage = "The ID token validation performed after authentication failed."

  public static let missing = IDTokenValidationError(
    .missing, "ID token validation was requested but the response did not include an ID token")
  public static let decode = IDTokenValidationError(.decode, "ID token could not be decoded")
  public static func unsupportedAlgorithm(_ alg: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .alg, "Signature algorithm of \"\(alg)\" is not supported. Expected the ID token to be signed with \"RS256\"")
  }
  public static func missingPublicKey(kid: String) -> IDTokenValidationError {
    IDTokenValidationError(.kid, "Could not find a public key for Key ID (kid) \"\(kid)\"")
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
