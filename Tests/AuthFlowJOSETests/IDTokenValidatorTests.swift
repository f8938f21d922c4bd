import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

@Suite struct IDTokenValidatorTests {
  static let now = 1_700_000_000
  static let issuer = "https://tenant.example.com/"

  static let valid: [String: Value] = [
    "iss": .string(issuer), "sub": .string("auth0|alice"), "aud": .string("client-1"),
    "exp": .int(now + 3600), "iat": .int(now), "nonce": .string("n-1"), "auth_time": .int(now - 10),
    "org_id": .string("org_123"), "org_name": .string("acme"),
  ]

  func validator(
    nonce: String? = "n-1", maxAge: Int? = nil, organization: String? = nil, leeway: Int = 60
  ) -> IDTokenValidator {
    IDTokenValidator(
      jwks: TestKeys.jwks,
      options: .init(
        issuer: Self.issuer, clientID: "client-1", nonce: nonce, maxAge: maxAge, organization: organization,
        leeway: leeway, now: { Date(timeIntervalSince1970: TimeInterval(Self.now)) }))
  }

  func token(_ change: (inout [String: Value]) -> Void = { _ in }) throws -> String {
    var claims = Self.valid
    change(&claims)
    return try TestKeys.rsa.sign(claims: claims)
  }

  func failure(_ token: String, _ validator: IDTokenValidator? = nil) -> IDTokenValidationError? {
    do {
      try (validator ?? self.validator()).validate(token)
      return nil
    } catch {
      return error
    }
  }

  @Test func acceptsAValidToken() throws {
    #expect(failure(try token(), validator(maxAge: 60, organization: "org_123")) == nil)
    #expect(failure(try token(), validator(organization: "ACME")) == nil)
  }

  @Test func missingAndUndecodable() {
    #expect(failure("") == .missing)
    #expect(failure("garbage") == .decode)
    #expect(failure("a.b.c")?.message == "ID token could not be decoded")
  }

  @Test func algMustBeRS256() throws {
    let es = try TestKeys.es256.sign(claims: Self.valid)
    #expect(
      failure(es)?.message
        == "Signature algorithm of \"ES256\" is not supported. Expected the ID token to be signed with \"RS256\"")
    let hs = try SigningKey(hmacSecret: Data("secret".utf8), kid: "test-rsa").sign(claims: Self.valid)
    #expect(failure(hs) == .unsupportedAlgorithm("HS256"))
  }

  @Test func kidMustBeInTheKeySet() throws {
    let other = try SigningKey(rsaPEM: TestKeys.otherRSA.rsaPEM ?? "", kid: "rotated").sign(claims: Self.valid)
    #expect(failure(other)?.message == "Could not find a public key for Key ID (kid) \"rotated\"")
  }

  /// A key with the token's kid that cannot be used is the JWKS's fault, named as such — not "Could
  /// not find a public key", which sends a reader looking for a kid mismatch.
  @Test func aMalformedKeyIsNamedAsMalformed() throws {
    var set = TestKeys.jwks
    for index in set.keys.indices where set.keys[index].kid == "test-rsa" { set.keys[index].n = "!!not base64url!!" }
    let validator = IDTokenValidator(
      jwks: set,
      options: .init(
        issuer: Self.issuer, clientID: "client-1", nonce: "n-1",
        now: { Date(timeIntervalSince1970: TimeInterval(Self.now)) }))
    let message = failure(try token(), validator)?.message ?? ""
    #expect(
      message == "ID token rejected: the JWKS key 'test-rsa' is malformed: n and e must be base64url (RFC 7518 §6)")
  }

  @Test func signatureMustVerify() throws {
    let forged = try TestKeys.otherRSA.sign(claims: Self.valid)
    #expect(failure(forged)?.message == "Invalid ID token signature")
  }

  @Test func issuer() throws {
    #expect(failure(try token { $0["iss"] = nil }) == .missingIssuer)
    #expect(
      failure(try token { $0["iss"] = .int(1) })?.message
        == "Issuer (iss) claim must be a string present in the ID token")
    #expect(
      failure(try token { $0["iss"] = .string("https://tenant.example.com") })?.message
        == "Issuer (iss) claim mismatch in the ID token, expected (https://tenant.example.com/), found (https://tenant.example.com)"
    )
  }

  @Test func subject() throws {
    #expect(
      failure(try token { $0["sub"] = nil })?.message == "Subject (sub) claim must be a string present in the ID token")
    #expect(failure(try token { $0["sub"] = .string("") }) == .missingSubject)
  }

  @Test func audience() throws {
    #expect(
      failure(try token { $0["aud"] = nil })?.message
        == "Audience (aud) claim must be a string or array of strings present in the ID token")
    #expect(
      failure(try token { $0["aud"] = .string("other") })?.message
        == "Audience (aud) claim mismatch in the ID token; expected (client-1) but found (other)")
    #expect(
      failure(try token { $0["aud"] = .array([.string("a"), .string("b")]) })?.message
        == "Audience (aud) claim mismatch in the ID token; expected (client-1) but was not one of (a, b)")
  }

  @Test func expiration() throws {
    #expect(
      failure(try token { $0["exp"] = nil })?.message
        == "Expiration time (exp) claim must be a number present in the ID token")
    #expect(
      failure(try token { $0["exp"] = .int(Self.now - 61) })?.message
        == "Expiration time (exp) claim error in the ID token; current time (1700000000.0) is after expiration time (1699999999.0)"
    )
    #expect(failure(try token { $0["exp"] = .int(Self.now - 59) }) == nil)
  }

  @Test func issuedAt() throws {
    #expect(
      failure(try token { $0["iat"] = nil })?.message
        == "Issued At (iat) claim must be a number present in the ID token")
  }

  @Test func nonce() throws {
    #expect(
      failure(try token { $0["nonce"] = nil })?.message
        == "Nonce (nonce) claim must be a string present in the ID token")
    #expect(
      failure(try token { $0["nonce"] = .string("n-2") })?.message
        == "Nonce (nonce) claim value mismatch in the ID token; expected (n-1), found (n-2)")
    #expect(failure(try token { $0["nonce"] = nil }, validator(nonce: nil)) == nil)
  }

  @Test func authorizedPartyOnlyWithSeveralAudiences() throws {
    let several: Value = .array([.string("client-1"), .string("https://api.example.com")])
    #expect(
      failure(try token { $0["aud"] = several })?.message
        == "Authorized Party (azp) claim must be a string present in the ID token when Audience (aud) claim has multiple values"
    )
    #expect(
      failure(
        try token {
          $0["aud"] = several
          $0["azp"] = .string("x")
        })?.message == "Authorized Party (azp) claim mismatch in the ID token; expected (client-1), found (x)")
    #expect(failure(try token { $0["azp"] = .string("x") }) == nil)  // single aud: azp not checked
  }

  @Test func authTimeOnlyWithMaxAge() throws {
    #expect(failure(try token { $0["auth_time"] = nil }) == nil)
    #expect(
      failure(try token { $0["auth_time"] = nil }, validator(maxAge: 60))?.message
        == "Authentication Time (auth_time) claim must be a number present in the ID token when Max Age (max_age) is specified"
    )
    #expect(
      failure(try token { $0["auth_time"] = .int(Self.now - 200) }, validator(maxAge: 100, leeway: 60))?.message
        == "Authentication Time (auth_time) claim in the ID token indicates that too much time has passed since the last user authentication. Current time (1700000000.0) is after last auth time (1699999960.0)"
    )
  }

  @Test func organizationID() throws {
    let expectOrg = validator(organization: "org_123")
    #expect(
      failure(try token { $0["org_id"] = nil }, expectOrg)?.message
        == "Organization Id (org_id) claim must be a string present in the ID token")
    #expect(
      failure(try token { $0["org_id"] = .string("org_999") }, expectOrg)?.message
        == "Organization Id (org_id) claim value mismatch in the ID token; expected (org_123), found (org_999)")
  }

  @Test func organizationNameIsComparedLowercased() throws {
    let expectOrg = validator(organization: "Acme")
    #expect(
      failure(try token { $0["org_name"] = nil }, expectOrg)?.message
        == "Organization Name (org_name) claim must be a string present in the ID token")
    #expect(
      failure(try token { $0["org_name"] = .string("Acme") }, expectOrg)?.message
        == "Organization Name (org_name) claim value mismatch in the ID token; expected (acme), found (Acme)")
  }

  @Test func firstFailureWins() throws {
    let broken = try token {
      $0["iss"] = nil
      $0["sub"] = nil
      $0["exp"] = nil
    }
    #expect(failure(broken)?.check == .iss)
  }
}
