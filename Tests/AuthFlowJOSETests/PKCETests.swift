import AuthFlowJOSE
import Testing

@Suite struct PKCETests {
  // RFC 7636 Appendix B. (The value "E9Melhoa2OwvFWpbq0wgT2n8pW9mbbd9h-T9M6tQ0k8" quoted in the task brief
  // is not SHA-256 of this verifier; the RFC's own value, checked independently, is used here.)
  @Test func rfc7636AppendixBVector() {
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    #expect(PKCE.challenge(for: verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(PKCE.verify(verifier: verifier, challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", method: .s256))
    #expect(
      !PKCE.verify(verifier: verifier + "x", challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", method: .s256))
  }

  @Test func plainChallengeIsTheVerifier() {
    #expect(PKCE.challenge(for: "abc", method: .plain) == "abc")
    #expect(PKCE.verify(verifier: "abc", challenge: "abc", method: .plain))
  }

  @Test func generatedVerifierIs43Base64URLCharacters() {
    let verifier = PKCE.generateVerifier()
    #expect(verifier.count == 43)
    #expect(verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    #expect(verifier != PKCE.generateVerifier())
  }
}
