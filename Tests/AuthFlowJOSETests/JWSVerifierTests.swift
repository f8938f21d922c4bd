import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

@Suite struct JWSVerifierTests {
  let verifier = JWSVerifier(jwks: TestKeys.jwks)
  let claims: [String: Value] = ["sub": .string("auth0|alice"), "n": .int(1)]

  @Test func rs256RoundTrip() throws {
    let token = try TestKeys.rsa.sign(claims: claims)
    let jws = try verifier.verify(token)
    #expect(jws.claims["sub"] == .string("auth0|alice"))
    #expect(jws.header["kid"] == .string("test-rsa"))
    #expect(jws.header["alg"] == .string("RS256"))
  }

  @Test func es256RoundTrip() throws {
    let token = try TestKeys.es256.sign(claims: claims)
    #expect(try verifier.verify(token).header["alg"] == .string("ES256"))
  }

  @Test func publicJWKAlwaysHasAlgAndUse() throws {
    let jwk = try #require(TestKeys.rsa.publicJWK)
    #expect(jwk.alg == "RS256")
    #expect(jwk.use == "sig")
    #expect(jwk.kty == "RSA")
    #expect(jwk.e == "AQAB")
    #expect(jwk.kid == "test-rsa")
  }

  @Test func pemRoundTripKeepsTheKey() throws {
    let pem = try #require(TestKeys.rsa.rsaPEM)
    let reloaded = try SigningKey(rsaPEM: pem, kid: "test-rsa")
    #expect(reloaded.publicJWK == TestKeys.rsa.publicJWK)
    #expect(try verifier.verify(reloaded.sign(claims: claims)).claims == claims)
  }

  @Test func rejectsAlgNone() throws {
    let header = Base64URL.encode(Data(#"{"alg":"none","kid":"test-rsa"}"#.utf8))
    let payload = Base64URL.encode(Data(#"{"sub":"x"}"#.utf8))
    #expect(reason(of: "\(header).\(payload).") == .algorithmNone)
  }

  @Test func rejectsUnknownKid() throws {
    let token = try SigningKey.generateES256(kid: "elsewhere").sign(claims: claims)
    #expect(reason(of: token) == .unknownKeyID)
  }

  @Test func rejectsMissingKid() throws {
    let header = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8))
    let payload = Base64URL.encode(Data(#"{"sub":"x"}"#.utf8))
    #expect(reason(of: "\(header).\(payload).AAAA") == .missingKeyID)
  }

  @Test func rejectsBadSignature() throws {
    let token = try TestKeys.otherRSA.sign(claims: claims)  // same kid, different key
    #expect(reason(of: token) == .invalidSignature)
  }

  @Test func rejectsTamperedPayload() throws {
    let parts = try TestKeys.rsa.sign(claims: claims).split(separator: ".")
    let forged = Base64URL.encode(Data(#"{"sub":"auth0|mallory"}"#.utf8))
    #expect(reason(of: "\(parts[0]).\(forged).\(parts[2])") == .invalidSignature)
  }

  @Test func rejectsHS256SignedWithThePublicKeyAsSecret() throws {
    // The classic confusion attack: HMAC keyed with the RSA public key material.
    let jwk = try #require(TestKeys.rsa.publicJWK)
    let secret = Data((jwk.n ?? "").utf8)
    let forged = try SigningKey(hmacSecret: secret, kid: "test-rsa").sign(claims: claims)
    #expect(reason(of: forged) == .algorithmKeyMismatch)
  }

  @Test func rejectsAlgorithmTheKeyIsNotFor() throws {
    let token = try SigningKey(rsaPEM: TestKeys.rsa.rsaPEM ?? "", kid: "test-rsa", algorithm: .ps256).sign(
      claims: claims)
    #expect(reason(of: token) == .algorithmKeyMismatch)  // the JWK says RS256
  }

  @Test func rejectsMalformed() {
    #expect(reason(of: "not-a-jwt") == .malformed)
    #expect(reason(of: "a.b.c") == .malformed)
  }

  private func reason(of token: String) -> JWSError.Reason? {
    do {
      try verifier.verify(token)
      return nil
    } catch {
      return error.reason
    }
  }
}
