public import AuthFlowCore
public import Foundation

/// Validates an ID token as Auth0.swift does (PROTOCOL §5) plus the OIDC Core / RFC 7515 / RFC 8725
/// rules it omits (docs/id-token-validation.md): size, decode (duplicate members rejected), alg,
/// crit, typ, kid, the key's use / key_ops / alg, signature, then iss, sub, aud, exp, nbf, iat (present,
/// not in the future), nonce, azp, auth_time, org; the first failure is reported.
public struct IDTokenValidator: Sendable {
  /// What the token is checked against.
  public struct Options: Sendable {
    /// The expected `iss`, e.g. `https://tenant.auth0.com/` (with the trailing slash).
    public var issuer: String
    /// The client ID that must be in `aud` (and equal `azp` when `aud` has several values).
    public var clientID: String
    /// The nonce sent to `/authorize`; nil skips the nonce check.
    public var nonce: String?
    /// `max_age` in seconds; when set, `auth_time` is required and checked.
    public var maxAge: Int?
    /// The organization given to the SDK: `org_…` checks `org_id`, anything else `org_name` (lowercased).
    public var organization: String?
    /// Leeway in seconds for clock skew: added to `exp` and `auth_time + max_age`, subtracted from
    /// `nbf` and `iat` (default 60; Auth0.swift Web Auth's 60 000 is a quirk authflow does not follow).
    public var leeway: Int
    /// The clock.
    public var now: @Sendable () -> Date

    public init(
      issuer: String, clientID: String, nonce: String? = nil, maxAge: Int? = nil, organization: String? = nil,
      leeway: Int = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.issuer = issuer
      self.clientID = clientID
      self.nonce = nonce
      self.maxAge = maxAge
      self.organization = organization
      self.leeway = leeway
      self.now = now
    }
  }

  /// The tenant's keys.
  public let keys: VerificationKeys
  public var options: Options

  public init(keys: VerificationKeys, options: Options) {
    self.keys = keys
    self.options = options
  }

  public init(jwks: JWKSet, options: Options) {
    self.init(keys: VerificationKeys(jwks), options: options)
  }

  /// Validates `token` and returns it decoded, or throws the first failure.
  @discardableResult
  public func validate(_ token: String) throws(IDTokenValidationError) -> CompactJWS {
    if token.isEmpty { throw .missing }
    guard token.utf8.count <= IDTokenValidationError.maximumTokenSize else { throw .oversized(bytes: token.utf8.count) }
    let jws: CompactJWS
    do {
      jws = try CompactJWS(parsing: token)
    } catch {
      if error.reason == .duplicateMember {
        throw .duplicateMember(part: error.description.contains("header") ? "header" : "payload")
      }
      throw .decode
    }
    try checkSignature(jws)
    try checkClaims(jws.claims)
    return jws
  }

  /// Validates a token already split and decoded (`CompactJWS(parsing:)` succeeded), so that a
  /// caller who needed its header first does not decode it twice: the same checks as
  /// validating the token text, from the size on.
  public func validate(_ jws: CompactJWS) throws(IDTokenValidationError) {
    guard jws.raw.utf8.count <= IDTokenValidationError.maximumTokenSize else {
      throw .oversized(bytes: jws.raw.utf8.count)
    }
    try checkSignature(jws)
    try checkClaims(jws.claims)
  }

  private func checkSignature(_ jws: CompactJWS) throws(IDTokenValidationError) {
    let alg = jws.algorithmName ?? ""
    guard alg == JWSAlgorithm.rs256.rawValue else { throw .unsupportedAlgorithm(alg) }
    try IDTokenValidator.checkHeader(jws.header)
    let kid = jws.keyID ?? ""
    guard let jwk = keys.jwk(kid: kid) else { throw .missingPublicKey(kid: kid) }
    if let why = VerificationKeys.notForSignatures(jwk) { throw .keyNotForSignatures(kid: kid, why: why) }
    // RFC 7517 §4.4: `alg` is optional; a key without it verifies the algorithms its `kty` fits.
    if let keyAlg = jwk.alg, keyAlg != alg { throw .keyAlgorithmMismatch(kid: kid, keyAlg: keyAlg, alg: alg) }
    if jwk.kty != JWSAlgorithm.rs256.keyType { throw .keyTypeMismatch(kid: kid, kty: jwk.kty, alg: alg) }
    do {
      try keys.verify(jws)
    } catch {
      switch error.reason {
      case .missingKeyID, .unknownKeyID: throw .missingPublicKey(kid: kid)
      // The key is there but cannot be used: say so, not that it is missing.
      case .invalidKey: throw .unusablePublicKey(kid: kid, why: error.detail ?? "it cannot be parsed")
      default: throw .invalidSignature
      }
    }
  }

  /// `crit` (RFC 7515 §4.1.11: authflow understands no extension, so any is rejected) and `typ`
  /// (RFC 8725 §3.11: when present, `JWT`, so an access token `at+jwt` is not taken for an ID token).
  private static func checkHeader(_ header: [String: Value]) throws(IDTokenValidationError) {
    if let crit = header["crit"] {
      guard case .array(let items) = crit.unwrapped, !items.isEmpty else { throw .malformedCritical }
      let names = items.compactMap(\.stringValue)
      guard names.count == items.count else { throw .malformedCritical }
      throw .unsupportedCritical(names)
    }
    if let typ = header["typ"] {
      let text = typ.stringValue ?? typ.jsonText()
      guard ["jwt", "application/jwt"].contains(text.lowercased()) else { throw .unexpectedType(text) }
    }
  }

  /// The claim checks alone, for a token whose signature was checked elsewhere.
  public func checkClaims(_ claims: [String: Value]) throws(IDTokenValidationError) {
    let now = options.now().timeIntervalSince1970
    try IDTokenValidator.checkIssuer(claims, expected: options.issuer)
    guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else { throw .missingSubject }
    let audience = try IDTokenValidator.checkAudience(claims, clientID: options.clientID)
    guard let exp = claims["exp"]?.doubleValue else { throw .missingExpiration }
    let expiration = exp + Double(options.leeway)
    guard expiration > now else { throw .pastExpiration(now: now, expiration: expiration) }
    if let nbf = claims["nbf"] {
      guard let notBefore = nbf.doubleValue else { throw .malformedNotBefore }
      let earliest = notBefore - Double(options.leeway)
      guard now >= earliest else { throw .futureNotBefore(now: now, notBefore: earliest) }
    }
    guard let iat = claims["iat"]?.doubleValue else { throw .missingIssuedAt }
    let issued = iat - Double(options.leeway)
    guard now >= issued else { throw .futureIssuedAt(now: now, issuedAt: issued) }
    if let expected = options.nonce {
      guard let actual = claims["nonce"]?.stringValue else { throw .missingNonce }
      guard actual == expected else { throw .mismatchedNonce(actual: actual, expected: expected) }
    }
    if audience.count > 1 {
      guard let azp = claims["azp"]?.stringValue else { throw .missingAuthorizedParty }
      guard azp == options.clientID else {
        throw .mismatchedAuthorizedParty(actual: azp, expected: options.clientID)
      }
    }
    if let maxAge = options.maxAge {
      guard let authTime = claims["auth_time"]?.doubleValue else { throw .missingAuthTime }
      let limit = authTime + Double(maxAge) + Double(options.leeway)
      guard now <= limit else { throw .pastLastAuthentication(now: now, lastAuthTime: limit) }
    }
    try IDTokenValidator.checkOrganization(claims, expected: options.organization)
  }

  private static func checkIssuer(_ claims: [String: Value], expected: String) throws(IDTokenValidationError) {
    guard let iss = claims["iss"]?.stringValue else { throw .missingIssuer }
    guard iss == expected else { throw .mismatchedIssuer(actual: iss, expected: expected) }
  }

  private static func checkAudience(
    _ claims: [String: Value], clientID: String
  ) throws(IDTokenValidationError)
    -> [String]
  {
    let audience: [String]
    switch claims["aud"]?.unwrapped {
    case .string(let single)?: audience = [single]
    case .array(let items)?: audience = items.compactMap(\.stringValue)
    default: audience = []
    }
    guard !audience.isEmpty else { throw .missingAudience }
    guard audience.contains(clientID) else {
      if audience.count == 1 { throw .mismatchedAudience(actual: audience[0], expected: clientID) }
      throw .mismatchedAudience(actual: audience, expected: clientID)
    }
    return audience
  }

  private static func checkOrganization(_ claims: [String: Value], expected: String?) throws(IDTokenValidationError) {
    guard let organization = expected, !organization.isEmpty else { return }
    if organization.hasPrefix("org_") {
      guard let actual = claims["org_id"]?.stringValue else { throw .missingOrganizationID }
      guard actual == organization else { throw .mismatchedOrganizationID(actual: actual, expected: organization) }
    } else {
      let lowered = organization.lowercased()
      guard let actual = claims["org_name"]?.stringValue else { throw .missingOrganizationName }
      guard actual == lowered else { throw .mismatchedOrganizationName(actual: actual, expected: lowered) }
    }
  }
}
