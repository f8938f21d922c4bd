import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

/// The ID-token rules of the OpenID conformance suite's `ValidateIdToken` and friends, with their
/// bounds, and the algorithms and key selection of a conforming provider (OIDC Core §3.1.3.7,
/// §10.1). Each test fails if its rule is removed.
@Suite struct IDTokenConformanceTests {
  static let now = 1_700_000_000
  static let issuer = "https://op.example.com"

  static let valid: [String: Value] = [
    "iss": .string(issuer), "sub": .string("user-1"), "aud": .string("client-1"),
    "exp": .int(now + 600), "iat": .int(now), "nonce": .string("n-1"),
  ]

  func options(
    algorithms: Set<JWSAlgorithm>? = Set(JWSAlgorithm.signing), secret: String? = "the-client-secret",
    accessToken: String? = nil, code: String? = nil, receivedNow: Bool = true
  ) -> IDTokenValidator.Options {
    IDTokenValidator.Options(
      issuer: Self.issuer, clientID: "client-1", nonce: "n-1",
      now: { Date(timeIntervalSince1970: TimeInterval(Self.now)) }, algorithms: algorithms, clientSecret: secret,
      accessToken: accessToken, code: code, receivedNow: receivedNow)
  }

  func failure(
    _ claims: [String: Value], key: SigningKey = TestKeys.rsa, jwks: JWKSet = TestKeys.jwks,
    options: IDTokenValidator.Options? = nil, includeKeyID: Bool = true
  ) throws -> IDTokenValidationError? {
    let token = try key.sign(claims: claims, includeKeyID: includeKeyID)
    do {
      try IDTokenValidator(jwks: jwks, options: options ?? self.options()).validate(token)
      return nil
    } catch {
      return error
    }
  }

  func changed(_ change: (inout [String: Value]) -> Void) -> [String: Value] {
    var claims = Self.valid
    change(&claims)
    return claims
  }

  @Test func aValidTokenPasses() throws {
    #expect(try failure(Self.valid) == nil)
  }

  @Test func iatMoreThanFiveMinutesOldFailsWhenReceivedNow() throws {
    let stale = changed { $0["iat"] = .int(Self.now - 301) }
    #expect(try failure(stale)?.check == .iat)
    #expect(try failure(stale)?.message.contains("ValidateIdToken") == true)
    // Within the bound, and a token kept from an earlier step, pass.
    #expect(try failure(changed { $0["iat"] = .int(Self.now - 299) }) == nil)
    #expect(try failure(stale, options: options(receivedNow: false)) == nil)
  }

  @Test func iatInTheFutureBeyondTheSuitesSkewFails() throws {
    #expect(try failure(changed { $0["iat"] = .int(Self.now + 299) }) == nil)
    #expect(try failure(changed { $0["iat"] = .int(Self.now + 301) })?.check == .iat)
  }

  @Test func expMoreThanFiftyYearsAheadFails() throws {
    let far = changed { $0["exp"] = .int(Self.now + 51 * 365 * 24 * 3600) }
    #expect(try failure(far)?.check == .exp)
    #expect(try failure(changed { $0["exp"] = .int(Self.now + 49 * 365 * 24 * 3600) }) == nil)
  }

  @Test func authTimeBoundsHoldWithoutMaxAge() throws {
    #expect(try failure(changed { $0["auth_time"] = .int(Self.now + 301) })?.check == .authTime)
    #expect(try failure(changed { $0["auth_time"] = .int(Self.now - 366 * 24 * 3600) })?.check == .authTime)
    #expect(try failure(changed { $0["auth_time"] = .string("yesterday") })?.check == .authTime)
    #expect(try failure(changed { $0["auth_time"] = .int(Self.now - 3600) }) == nil)
  }

  @Test(arguments: [
    String(repeating: "a", count: 256), "tab\there", "caf\u{e9}", "line\nbreak",
  ])
  func subMustBeAtMost255PrintableASCII(_ sub: String) throws {
    #expect(try failure(changed { $0["sub"] = .string(sub) })?.check == .sub)
  }

  @Test func acrMustBeANonEmptyString() throws {
    #expect(try failure(changed { $0["acr"] = .string("") })?.check == .acr)
    #expect(try failure(changed { $0["acr"] = .int(1) })?.check == .acr)
    #expect(try failure(changed { $0["acr"] = .string("urn:mace:incommon:iap:silver") }) == nil)
  }

  @Test(arguments: [
    ("email_verified", Value.string("true")), ("phone_number_verified", .int(1)), ("name", .string("")),
    ("email", .string("null")), ("updated_at", .string("2024-01-01T00:00:00Z")), ("birthdate", .string("1-2-3")),
    ("address", .string("1 Main St")), ("given_name", .bool(true)),
  ])
  func standardClaimsHaveTheirTypes(_ claim: String, _ value: Value) throws {
    #expect(try failure(changed { $0[claim] = value })?.check == .claims, "\(claim): \(value)")
  }

  @Test func wellTypedStandardClaimsPass() throws {
    let claims = changed {
      $0["email_verified"] = true
      $0["updated_at"] = .int(Self.now - 100)
      $0["birthdate"] = "0000-02-29"
      $0["address"] = ["country": "SE", "locality": "Lund"]
      $0["custom_claim"] = .int(3)
    }
    #expect(try failure(claims) == nil)
  }

  /// Auth0 sends `updated_at` as an ISO 8601 string: under Auth0.swift's rules (no `algorithms`) it
  /// passes, as it does for the SDK.
  @Test func auth0sUpdatedAtStringPassesUnderAuth0Rules() throws {
    let claims = changed { $0["updated_at"] = "2024-01-01T00:00:00.000Z" }
    #expect(try failure(claims, options: options(algorithms: nil)) == nil)
    #expect(try failure(claims)?.check == .claims)
  }

  @Test func atHashAndCHashMustMatchWhenPresent() throws {
    let accessToken = "an-access-token"
    let code = "the-code"
    let good = changed {
      $0["at_hash"] = .string(TokenHash.value(of: accessToken, algorithm: .rs256) ?? "")
      $0["c_hash"] = .string(TokenHash.value(of: code, algorithm: .rs256) ?? "")
    }
    let checked = options(accessToken: accessToken, code: code)
    #expect(try failure(good, options: checked) == nil)
    #expect(
      try failure(good, options: options(accessToken: "another", code: code), includeKeyID: true)?.check == .atHash)
    #expect(try failure(good, options: options(accessToken: accessToken, code: "another"))?.check == .cHash)
    // Absent, nothing to check.
    #expect(try failure(Self.valid, options: checked) == nil)
  }

  /// OpenID Connect Core §3.3.2.11's example: at_hash of "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y".
  @Test func theHashIsTheLeftHalfOfTheAlgorithmsDigest() {
    #expect(
      TokenHash.value(of: "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", algorithm: .rs256) == "77QmUPtjPfzWtF2AnpK9RQ")
  }

  @Test(arguments: JWSAlgorithm.signing.filter { !$0.isSymmetric })
  func everyListedAlgorithmSignsIn(_ algorithm: JWSAlgorithm) throws {
    let key = try SigningKey.generate(algorithm, kid: "op-key")
    let jwks = JWKSet(keys: [key.publicJWK].compactMap { $0 })
    #expect(try failure(Self.valid, key: key, jwks: jwks) == nil)
    // Not listed by the provider: refused, naming the list.
    let other = options(algorithms: [algorithm == .rs256 ? .ps256 : .rs256])
    #expect(try failure(Self.valid, key: key, jwks: jwks, options: other)?.check == .alg)
    // Auth0.swift's rules: RS256 only.
    if algorithm != .rs256 {
      #expect(try failure(Self.valid, key: key, jwks: jwks, options: options(algorithms: nil))?.check == .alg)
    }
  }

  @Test func hmacIsKeyedWithTheClientSecret() throws {
    let key = SigningKey(hmacSecret: Data("the-client-secret".utf8), algorithm: .hs256)
    #expect(try failure(Self.valid, key: key) == nil)
    #expect(try failure(Self.valid, key: key, options: options(secret: "another"))?.check == .signature)
    #expect(try failure(Self.valid, key: key, options: options(secret: nil))?.check == .alg)
  }

  @Test func noneIsNeverAccepted() throws {
    let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
    let payload = Base64URL.encode(Data(Value.object(Self.valid).jsonText(revealSecrets: true).utf8))
    do {
      try IDTokenValidator(jwks: TestKeys.jwks, options: options()).validate("\(header).\(payload).")
      Issue.record("an unsigned ID token passed")
    } catch {
      #expect(error.check == .alg)
    }
  }

  /// A provider with one key may leave `kid` out (OIDC Core §10.1); with several keys that fit, it
  /// may not; Auth0.swift's rules always want it.
  @Test func kidIsOptionalWhereOneKeyFits() throws {
    #expect(try failure(Self.valid, includeKeyID: false) == nil)
    let second = try SigningKey.generateRSA(kid: "second")
    let two = JWKSet(keys: [TestKeys.rsa.publicJWK, second.publicJWK].compactMap { $0 })
    let ambiguous = try failure(Self.valid, jwks: two, includeKeyID: false)
    #expect(ambiguous?.check == .kid)
    #expect(ambiguous?.message.contains("OpenID Connect Core §10.1") == true)
    #expect(try failure(Self.valid, options: options(algorithms: nil), includeKeyID: false)?.check == .kid)
  }
}
