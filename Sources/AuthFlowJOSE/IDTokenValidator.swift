public import AuthFlowCore
public import Foundation

/// Validates an ID token as Auth0.swift does (docs/protocol.md §5) plus the OIDC Core / RFC 7515 / RFC 8725
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
    /// The algorithms the ID token may be signed with (an `oidc` tenant's
    /// `id_token_signing_alg_values_supported`, never `none`), its `kid` optional where one key of
    /// the JWKS fits (OIDC Core §10.1). Nil: Auth0.swift's rules, RS256 with a `kid` (docs/protocol.md §5).
    public var algorithms: Set<JWSAlgorithm>?
    /// The client secret, which keys the HMAC algorithms (OIDC Core §10.1).
    public var clientSecret: String?
    /// The access token issued with the ID token: its `at_hash`, when present, must match.
    public var accessToken: String?
    /// The authorization code the ID token came for: its `c_hash`, when present, must match.
    public var code: String?
    /// True when the token was received just now (from a token or authorization response): its
    /// `iat` may then be at most ``issuedAtMaximumAge`` seconds old. False for a token kept from
    /// an earlier step.
    public var receivedNow: Bool

    public init(
      issuer: String, clientID: String, nonce: String? = nil, maxAge: Int? = nil, organization: String? = nil,
      leeway: Int = 60, now: @escaping @Sendable () -> Date = { Date() }, algorithms: Set<JWSAlgorithm>? = nil,
      clientSecret: String? = nil, accessToken: String? = nil, code: String? = nil, receivedNow: Bool = true
    ) {
      self.issuer = issuer
      self.clientID = clientID
      self.nonce = nonce
      self.maxAge = maxAge
      self.organization = organization
      self.leeway = leeway
      self.now = now
      self.algorithms = algorithms
      self.clientSecret = clientSecret
      self.accessToken = accessToken
      self.code = code
      self.receivedNow = receivedNow
    }
  }

  /// How far from the current time `iat` (and a future `auth_time`) may be: the 5 minutes of the
  /// OpenID Foundation's conformance suite (`ValidateIdToken`), or the step's leeway when larger.
  public static let clockSkew = 300
  /// The oldest `iat` of a token received now, in seconds.
  public static let issuedAtMaximumAge = 300
  /// The farthest `exp` may be: 50 years.
  public static let longestLifetime = 50.0 * 365 * 24 * 3600
  /// The oldest `auth_time`: one year.
  public static let oldestAuthentication = 365.0 * 24 * 3600

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
    try checkHashes(jws)
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
    try checkHashes(jws)
  }

  /// `at_hash` and `c_hash`, when present and the access token or code is known, must match them
  /// (OIDC Core §3.3.2.11; the conformance suite's `ValidateAtHash`, `ValidateCHash`).
  private func checkHashes(_ jws: CompactJWS) throws(IDTokenValidationError) {
    let algorithm = JWSAlgorithm(rawValue: jws.algorithmName ?? "") ?? .rs256
    for (claim, text, mismatch) in [
      ("at_hash", options.accessToken, IDTokenValidationError.mismatchedAccessTokenHash),
      ("c_hash", options.code, .mismatchedCodeHash),
    ] {
      guard let value = jws.claims[claim], !value.isNull else { continue }
      guard let given = value.stringValue else { throw .malformedTokenHash }
      guard let text else { continue }
      guard TokenHash.value(of: text, algorithm: algorithm) == given else { throw mismatch }
    }
  }

  /// The algorithm the token is signed with, if it may be: RS256 under Auth0.swift's rules, else
  /// one of ``Options/algorithms``; `none` never.
  private func algorithm(of jws: CompactJWS) throws(IDTokenValidationError) -> JWSAlgorithm {
    let alg = jws.algorithmName ?? ""
    guard let allowed = options.algorithms else {
      guard alg == JWSAlgorithm.rs256.rawValue else { throw .unsupportedAlgorithm(alg) }
      return .rs256
    }
    guard let algorithm = JWSAlgorithm(rawValue: alg), algorithm != .none, allowed.contains(algorithm) else {
      throw .algorithmNotAllowed(alg, allowed: allowed.map(\.rawValue).sorted())
    }
    return algorithm
  }

  private func checkSignature(_ jws: CompactJWS) throws(IDTokenValidationError) {
    let algorithm = try algorithm(of: jws)
    let alg = algorithm.rawValue
    try IDTokenValidator.checkHeader(jws.header)
    if algorithm.isSymmetric {
      guard let secret = options.clientSecret else { throw .noClientSecret(alg) }
      do {
        try keys.verify(jws, secret: secret)
      } catch {
        throw .invalidSignature
      }
      return
    }
    // Auth0.swift looks the key up by `kid` and has none without one; other providers may leave it
    // out when one key fits (OIDC Core §10.1).
    if options.algorithms == nil, jws.keyID == nil { throw .missingPublicKey(kid: "") }
    let jwk: JWK
    do {
      jwk = try keys.select(kid: jws.keyID, algorithm: algorithm)
    } catch {
      switch error.reason {
      case .noKeyForAlgorithm: throw .noKeyForAlgorithm(alg)
      case .ambiguousKey: throw .ambiguousKey(alg, count: keys.candidates(for: algorithm).count)
      default: throw .missingPublicKey(kid: jws.keyID ?? "")
      }
    }
    let kid = jwk.kid ?? ""
    if let why = VerificationKeys.notForSignatures(jwk) { throw .keyNotForSignatures(kid: kid, why: why) }
    // RFC 7517 §4.4: `alg` is optional; a key without it verifies the algorithms its `kty` fits.
    if let keyAlg = jwk.alg, keyAlg != alg { throw .keyAlgorithmMismatch(kid: kid, keyAlg: keyAlg, alg: alg) }
    if jwk.kty != algorithm.keyType || algorithm.curve.map({ $0 != jwk.crv }) == true {
      throw .keyTypeMismatch(kid: kid, kty: jwk.kty, alg: alg)
    }
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
    // The clock skew the conformance suite allows around the current time, or the leeway if larger.
    let issued = iat - Double(max(Self.clockSkew, options.leeway))
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
    try checkConformance(claims, now: now, iat: iat, exp: exp, sub: sub)
  }

  /// The rules the OpenID conformance suite applies on every module beyond Auth0.swift's, checked
  /// after them so that a token both break fails with Auth0.swift's message: `sub` at most 255
  /// printable ASCII characters, `exp` at most 50 years ahead, `iat` at most 5 minutes old when
  /// received now, `auth_time` neither in the future nor more than a year old, `acr` a non-empty
  /// string, and the standard claims of their OIDC Core §5.1 types.
  private func checkConformance(
    _ claims: [String: Value], now: Double, iat: Double, exp: Double, sub: String
  ) throws(IDTokenValidationError) {
    guard sub.utf8.count <= 255, sub.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
      throw .malformedSubject(length: sub.count)
    }
    guard exp <= now + Self.longestLifetime else { throw .farExpiration(now: now, expiration: exp) }
    let skew = max(Self.clockSkew, options.leeway)
    let maximumAge = max(Self.issuedAtMaximumAge, options.leeway)
    if options.receivedNow, iat < now - Double(maximumAge) {
      throw .staleIssuedAt(now: now, issuedAt: iat, bound: maximumAge)
    }
    if let value = claims["auth_time"], !value.isNull {
      guard let authTime = value.doubleValue else { throw .malformedAuthTime }
      guard authTime <= now + Double(skew) else { throw .futureAuthTime(now: now, authTime: authTime) }
      guard authTime >= now - Self.oldestAuthentication else { throw .ancientAuthTime(now: now, authTime: authTime) }
    }
    if let acr = claims["acr"], !acr.isNull {
      guard case .string(let text) = acr.unwrapped, !text.isEmpty else { throw .malformedACR }
    }
    // Under Auth0.swift's rules, Auth0's `updated_at` string passes (its documented format).
    if let (claim, expected) = StandardClaims.firstProblem(
      in: claims, now: options.now(), textUpdatedAt: options.algorithms == nil)
    {
      throw .malformedStandardClaim(claim, expected: expected)
    }
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
