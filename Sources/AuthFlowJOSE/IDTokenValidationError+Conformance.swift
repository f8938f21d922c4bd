/// The ID-token rules of OpenID Connect Core beyond Auth0.swift's checks, as the OpenID
/// Foundation's conformance suite applies them on every module (`ValidateIdToken`,
/// `CheckForSubjectInIdToken`, `ValidateIdTokenStandardClaims`, `ValidateIdTokenACRClaimAgainstRequest`,
/// `ValidateAtHash`, `ValidateCHash`, `ValidateIdTokenSignature`), each message naming the
/// condition and the clause.
extension IDTokenValidationError {
  public static func staleIssuedAt(now: Double, issuedAt: Double, bound: Int) -> IDTokenValidationError {
    IDTokenValidationError(
      .iat,
      "ID token rejected: Issued At (iat) \(issuedAt) is more than \(bound) seconds before the current time (\(now)): "
        + "the token was not issued now (ValidateIdToken, OpenID Connect Core §3.1.3.7)")
  }
  public static func farExpiration(now: Double, expiration: Double) -> IDTokenValidationError {
    IDTokenValidationError(
      .exp,
      "ID token rejected: Expiration time (exp) \(expiration) is more than 50 years after the current time (\(now)) "
        + "(ValidateIdToken, OpenID Connect Core §3.1.3.7)")
  }
  public static func futureAuthTime(now: Double, authTime: Double) -> IDTokenValidationError {
    IDTokenValidationError(
      .authTime,
      "ID token rejected: Authentication Time (auth_time) \(authTime) is in the future; current time (\(now)) "
        + "(ValidateIdToken, OpenID Connect Core §2)")
  }
  public static func ancientAuthTime(now: Double, authTime: Double) -> IDTokenValidationError {
    IDTokenValidationError(
      .authTime,
      "ID token rejected: Authentication Time (auth_time) \(authTime) is more than a year before the current time "
        + "(\(now)) (ValidateIdToken, OpenID Connect Core §2)")
  }
  public static let malformedAuthTime = IDTokenValidationError(
    .authTime,
    "ID token rejected: Authentication Time (auth_time) must be a number when present (OpenID Connect Core §2)")
  public static func malformedSubject(length: Int) -> IDTokenValidationError {
    IDTokenValidationError(
      .sub,
      "ID token rejected: Subject (sub) must be at most 255 printable ASCII characters; it has \(length) characters"
        + " or one outside 0x20–0x7E (CheckForSubjectInIdToken, OpenID Connect Core §2)")
  }
  public static let malformedACR = IDTokenValidationError(
    .acr,
    "ID token rejected: Authentication Context Class Reference (acr) must be a non-empty string when present "
      + "(ValidateIdToken, ValidateIdTokenACRClaimAgainstRequest, OpenID Connect Core §2)")
  public static func malformedStandardClaim(_ claim: String, expected: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .claims,
      "ID token rejected: the standard claim '\(claim)' must be \(expected) (ValidateIdTokenStandardClaims, "
        + "OpenID Connect Core §5.1)")
  }
  public static let mismatchedAccessTokenHash = IDTokenValidationError(
    .atHash,
    "ID token rejected: Access Token hash (at_hash) does not match the access token issued with it (ValidateAtHash, "
      + "OpenID Connect Core §3.3.2.11)")
  public static let mismatchedCodeHash = IDTokenValidationError(
    .cHash,
    "ID token rejected: Code hash (c_hash) does not match the authorization code (ValidateCHash, OpenID Connect "
      + "Core §3.3.2.11)")
  public static let malformedTokenHash = IDTokenValidationError(
    .atHash, "ID token rejected: at_hash and c_hash must be strings when present (OpenID Connect Core §3.3.2.11)")
  public static func algorithmNotAllowed(_ alg: String, allowed: [String]) -> IDTokenValidationError {
    let listed = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
    return IDTokenValidationError(
      .alg,
      "ID token rejected: it is signed with \"\(alg)\", which the provider does not list in "
        + "id_token_signing_alg_values_supported (\(listed)); \"none\" is never accepted "
        + "(ValidateIdTokenSignature, OpenID Connect Core §3.1.3.7, Discovery §3)")
  }
  public static func noKeyForAlgorithm(_ alg: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .kid,
      "ID token rejected: its header has no kid and the JWKS has no key for \(alg) (ValidateIdTokenSignature, "
        + "OpenID Connect Core §10.1)")
  }
  public static func ambiguousKey(_ alg: String, count: Int) -> IDTokenValidationError {
    IDTokenValidationError(
      .kid,
      "ID token rejected: its header has no kid and \(count) JWKS keys fit \(alg), so which one signed it cannot be "
        + "told: with several keys the kid is REQUIRED (OpenID Connect Core §10.1)")
  }
  public static func noClientSecret(_ alg: String) -> IDTokenValidationError {
    IDTokenValidationError(
      .alg,
      "ID token rejected: it is signed with \(alg), which is keyed with the client secret, and the client profile "
        + "has none (OpenID Connect Core §10.1)")
  }
}
