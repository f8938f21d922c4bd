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

  /// OIDC Core §10.1: without a `kid`, the one key that fits the algorithm is the key; with
  /// several, which one signed cannot be told.
  @Test func withoutKidTheOnlyFittingKeyVerifiesAndSeveralAreAmbiguous() throws {
    let header = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8))
    let payload = Base64URL.encode(Data(#"{"sub":"x"}"#.utf8))
    #expect(reason(of: "\(header).\(payload).AAAA") == .invalidSignature)
    let unnamed = try TestKeys.rsa.sign(claims: claims, includeKeyID: false)
    #expect(try verifier.verify(unnamed).claims == claims)
    let second = try SigningKey.generateRSA(kid: "second")
    let both = JWSVerifier(jwks: JWKSet(keys: [TestKeys.rsa.publicJWK, second.publicJWK].compactMap { $0 }))
    do {
      try both.verify(unnamed)
      Issue.record("a token without kid verified among two RSA keys")
    } catch {
      #expect(error.reason == .ambiguousKey)
    }
    // No key of the token's kind at all.
    let onlyEC = JWSVerifier(jwks: JWKSet(keys: [TestKeys.es256.publicJWK].compactMap { $0 }))
    do {
      try onlyEC.verify(unnamed)
      Issue.record("an RS256 token verified with only an EC key")
    } catch {
      #expect(error.reason == .noKeyForAlgorithm)
    }
  }

  /// Every algorithm a conforming provider signs ID tokens with round-trips through swift-crypto:
  /// signed, verified against its public JWK, and refused once a byte of the payload changes.
  @Test(arguments: JWSAlgorithm.signing.filter { !$0.isSymmetric })
  func everyAsymmetricAlgorithmRoundTrips(_ algorithm: JWSAlgorithm) throws {
    let key =
      try algorithm.keyType == "RSA" && algorithm != .rs256
      ? SigningKey(rsaPEM: TestKeys.rsa.rsaPEM ?? "", kid: "k", algorithm: algorithm)
      : SigningKey.generate(algorithm, kid: "k")
    let jwk = try #require(key.publicJWK)
    #expect(jwk.alg == algorithm.rawValue && jwk.kty == algorithm.keyType && jwk.crv == algorithm.curve)
    let verifier = JWSVerifier(jwks: JWKSet(keys: [jwk]))
    let token = try key.sign(claims: claims)
    #expect(try verifier.verify(token).header["alg"] == .string(algorithm.rawValue))
    let parts = token.split(separator: ".")
    let forged = Base64URL.encode(Data(#"{"sub":"auth0|mallory"}"#.utf8))
    do {
      try verifier.verify("\(parts[0]).\(forged).\(parts[2])")
      Issue.record("a tampered \(algorithm.rawValue) token verified")
    } catch {
      #expect(error.reason == .invalidSignature)
    }
  }

  /// HS256/384/512 verify with the shared secret (an ID token's client secret), and only with it.
  @Test(arguments: [JWSAlgorithm.hs256, .hs384, .hs512])
  func hmacVerifiesWithTheSecretOnly(_ algorithm: JWSAlgorithm) throws {
    let token = try SigningKey(hmacSecret: Data("client-secret".utf8), algorithm: algorithm).sign(claims: claims)
    let keys = VerificationKeys(TestKeys.jwks)
    #expect(try keys.verify(token, secret: "client-secret").claims == claims)
    for (secret, reason) in [(nil, JWSError.Reason.noSecret), ("another-secret", .invalidSignature)] {
      do {
        try keys.verify(token, secret: secret)
        Issue.record("\(algorithm.rawValue) verified with \(secret ?? "no secret")")
      } catch {
        #expect(error.reason == reason)
      }
    }
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
    // Never verified with a key of the set: only with the client secret, which is not the key.
    #expect(reason(of: forged) == .noSecret)
    do {
      try VerificationKeys(TestKeys.jwks).verify(forged, secret: "the-client-secret")
      Issue.record("an HS256 token keyed with the public key verified")
    } catch {
      #expect(error.reason == .invalidSignature)
    }
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
