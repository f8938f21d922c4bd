import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

/// The OIDC Core / RFC 7515 / RFC 7517 / RFC 8725 rules authflow adds to Auth0.swift's checks
/// (docs/id-token-validation.md). Each test fails if its rule is removed.
@Suite struct IDTokenHardeningTests {
  static let now = 1_700_000_000
  static let issuer = "https://tenant.example.com/"
  static let claims: [String: Value] = [
    "iss": .string(issuer), "sub": .string("auth0|alice"), "aud": .string("client-1"),
    "exp": .int(now + 3600), "iat": .int(now), "nonce": .string("n-1"),
  ]

  static func key(_ change: (inout JWK) -> Void = { _ in }) -> JWK {
    var jwk = TestKeys.rsa.publicJWK ?? JWK(kty: "RSA")
    change(&jwk)
    return jwk
  }

  func failure(_ token: String, keys: [JWK] = [key()], leeway: Int = 60) -> IDTokenValidationError? {
    let validator = IDTokenValidator(
      jwks: JWKSet(keys: keys),
      options: .init(
        issuer: Self.issuer, clientID: "client-1", nonce: "n-1", leeway: leeway,
        now: { Date(timeIntervalSince1970: TimeInterval(Self.now)) }))
    do {
      try validator.validate(token)
      return nil
    } catch {
      return error
    }
  }

  func token(header: [String: Value] = [:], _ change: (inout [String: Value]) -> Void = { _ in }) throws -> String {
    var claims = Self.claims
    change(&claims)
    return try TestKeys.rsa.sign(header: header, claims: claims)
  }

  /// Signs hand-written header and payload JSON with the test RSA key.
  func rawToken(header: String, payload: String) throws -> String {
    let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
    return input + "." + Base64URL.encode(try TestKeys.rsa.signature(for: Data(input.utf8)))
  }

  /// The failure of validating `token` already decoded, as `IDTokenCheck` does once it has read
  /// the header's `kid`.
  func decodedFailure(_ token: String) throws -> IDTokenValidationError? {
    let validator = IDTokenValidator(
      jwks: JWKSet(keys: [Self.key()]),
      options: .init(
        issuer: Self.issuer, clientID: "client-1", nonce: "n-1",
        now: { Date(timeIntervalSince1970: TimeInterval(Self.now)) }))
    let jws = try CompactJWS(parsing: token)
    do {
      try validator.validate(jws)
      return nil
    } catch {
      return error
    }
  }

  @Test func aDecodedTokenFailsAsItsTextDoes() throws {
    let valid = try token()
    let forged = valid.dropLast(4) + (valid.hasSuffix("AAAA") ? "BBBB" : "AAAA")
    let tokens = [
      valid, String(forged), try token(header: ["typ": .string("at+jwt")]), try token { $0["aud"] = .string("other") },
      try token { $0["exp"] = .int(Self.now - 3600) }, try token { $0["nonce"] = nil },
      try token { $0["iss"] = .string("https://elsewhere.example.com/") },
      try token { $0["padding"] = .string(String(repeating: "x", count: IDTokenValidationError.maximumTokenSize)) },
    ]
    for token in tokens {
      #expect(try decodedFailure(token) == failure(token))
    }
    #expect(try decodedFailure(valid) == nil)
    #expect(try decodedFailure(String(forged)) == .invalidSignature)
  }

  @Test func theBaselineTokenIsValid() throws {
    #expect(failure(try token()) == nil)
    #expect(failure(try token(header: ["typ": .string("jwt")])) == nil)
  }

  // RFC 7517 §4.2 / §4.3: only signature keys verify signatures.
  @Test func aKeyForEncryptionIsNotUsed() throws {
    let error = failure(try token(), keys: [Self.key { $0.use = "enc" }])
    #expect(error?.check == .keyUse)
    #expect(
      error?.message
        == "ID token rejected: the JWKS key 'test-rsa' is for encryption (use: enc), not signatures (RFC 7517 §4.2)")
  }

  @Test func aKeyWhoseKeyOpsLackVerifyIsNotUsed() throws {
    let error = failure(try token(), keys: [Self.key { $0.keyOps = ["encrypt", "wrapKey"] }])
    #expect(error?.check == .keyUse)
    #expect(error?.message.contains("key_ops [encrypt, wrapKey], which do not include verify") == true)
    #expect(failure(try token(), keys: [Self.key { $0.keyOps = ["verify"] }]) == nil)
  }

  @Test func keyOpsDecodeFromJSON() throws {
    let set = try JSONDecoder().decode(
      JWKSet.self, from: Data(#"{"keys":[{"kty":"RSA","kid":"k1","key_ops":["encrypt"]}]}"#.utf8))
    #expect(set.keys.first?.keyOps == ["encrypt"])
  }

  // RFC 7517 §4.4: `alg` is optional; when present it must be the token's.
  @Test func aKeyWithoutAlgVerifiesWhenItsKtyFits() throws {
    #expect(failure(try token(), keys: [Self.key { $0.alg = nil }]) == nil)
  }

  @Test func aKeyForAnotherAlgorithmIsNotUsed() throws {
    let error = failure(try token(), keys: [Self.key { $0.alg = "PS256" }])
    #expect(error?.check == .keyAlg)
    #expect(
      error?.message == "ID token rejected: the JWKS key 'test-rsa' is for PS256, not the token's RS256 (RFC 8725 §3.1)"
    )
  }

  @Test func aKeyOfAnotherTypeIsNotUsed() throws {
    let ec = TestKeys.es256.publicJWK ?? JWK(kty: "EC")
    var renamed = ec
    renamed.kid = "test-rsa"
    renamed.alg = nil
    #expect(failure(try token(), keys: [renamed])?.check == .keyAlg)
  }

  // RFC 7515 §4.1.11: an unknown critical extension is rejected.
  @Test func criticalHeaderParametersAreRejected() throws {
    let error = failure(try token(header: ["crit": .array([.string("exp")]), "exp": .int(1)]))
    #expect(error?.check == .crit)
    #expect(error?.message.contains("'exp' critical (crit)") == true)
    #expect(failure(try token(header: ["crit": .array([])])) == .malformedCritical)
    #expect(failure(try token(header: ["crit": .string("b64")])) == .malformedCritical)
  }

  // RFC 8725 §3.11: a token of another type is not an ID token.
  @Test func anotherTypIsRejected() throws {
    let error = failure(try token(header: ["typ": .string("at+jwt")]))
    #expect(error?.check == .typ)
    #expect(error?.message.contains("\"at+jwt\"") == true)
  }

  // RFC 7519 §4.1.5 and OIDC Core §3.1.3.7: not valid before nbf, not issued in the future.
  @Test func notBeforeInTheFutureIsRejected() throws {
    #expect(failure(try token { $0["nbf"] = .int(Self.now + 61) })?.check == .nbf)
    #expect(failure(try token { $0["nbf"] = .int(Self.now + 59) }) == nil)
    #expect(failure(try token { $0["nbf"] = .string("soon") }) == .malformedNotBefore)
  }

  @Test func issuedInTheFutureIsRejected() throws {
    let error = failure(try token { $0["iat"] = .int(Self.now + 3600) })
    #expect(error?.check == .iat)
    #expect(error?.message.hasPrefix("ID token rejected: Issued At (iat) is in the future") == true)
    #expect(failure(try token { $0["iat"] = .int(Self.now + 59) }) == nil)
    #expect(failure(try token { $0["iat"] = .int(Self.now + 120) }, leeway: 300) == nil)
  }

  // RFC 7515 §5.2 / RFC 7519 §4: duplicate member names are rejected.
  @Test func duplicateMembersAreRejected() throws {
    let header = #"{"alg":"RS256","kid":"test-rsa","alg":"RS256"}"#
    let payload = Value.object(Self.claims).jsonText()
    #expect(failure(try rawToken(header: header, payload: payload)) == .duplicateMember(part: "header"))
    let repeated =
      #"{"iss":"\#(Self.issuer)","sub":"a","sub":"b","aud":"client-1","exp":\#(Self.now + 60),"iat":\#(Self.now),"nonce":"n-1"}"#
    let headerOnce = #"{"alg":"RS256","kid":"test-rsa"}"#
    #expect(failure(try rawToken(header: headerOnce, payload: repeated))?.check == .duplicate)
    #expect(
      failure(try rawToken(header: headerOnce, payload: repeated.replacingOccurrences(of: #""sub":"b","#, with: "")))
        == nil)
  }

  @Test func malformedJSONIsUndecodable() throws {
    #expect(failure(try rawToken(header: #"{"alg":"RS256","kid":"test-rsa""#, payload: "{}")) == .decode)
    #expect(failure(try rawToken(header: #"{"alg":"RS256","kid":"test-rsa"}"#, payload: "[1]")) == .decode)
  }

  // RFC 8725 §3.9 spirit: untrusted input is bounded.
  @Test func oversizedTokensAreRejected() throws {
    let big = try token { $0["padding"] = .string(String(repeating: "x", count: 70_000)) }
    #expect(failure(big)?.check == .size)
  }

  // RFC 8725 §2.1 / §3.1: `none` and key confusion.
  @Test func unsecuredAndKeyConfusionTokensAreRejected() throws {
    let header = Base64URL.encode(Data(#"{"alg":"none","kid":"test-rsa"}"#.utf8))
    let payload = Base64URL.encode(Data(Value.object(Self.claims).jsonText().utf8))
    #expect(failure("\(header).\(payload).") == .unsupportedAlgorithm("none"))
    let publicKeyAsSecret = Data((TestKeys.rsa.publicJWK?.n ?? "").utf8)
    let confused = try SigningKey(hmacSecret: publicKeyAsSecret, kid: "test-rsa").sign(claims: Self.claims)
    #expect(failure(confused) == .unsupportedAlgorithm("HS256"))
  }

  @Test func headerFailuresMarkTheSignatureInvalid() {
    for error in [IDTokenValidationError.malformedCritical, .decode, .keyNotForSignatures(kid: "k", why: "x")] {
      #expect(error.isSignatureFailure)
    }
    #expect(!IDTokenValidationError.missingNonce.isSignatureFailure)
  }
}
