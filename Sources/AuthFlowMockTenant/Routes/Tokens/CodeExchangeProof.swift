import AuthFlowJOSE

/// The proof an authorization-code exchange needs besides the code (RFC 7636, RFC 9700 §2.1.1):
/// the PKCE verifier when `/authorize` had a challenge; no verifier when it had none (a
/// downgrade); and, for a public client, which has no secret, a challenge in the first place.
enum CodeExchangeProof {
  /// RFC 7636 §4.1: 43 to 128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`.
  static func isWellFormed(verifier: String) -> Bool {
    (43...128).contains(verifier.utf8.count)
      && verifier.utf8.allSatisfy { byte in
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
          || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
      }
  }

  /// Throws the error Auth0 gives when the proof does not hold.
  static func check(_ verifier: String?, for request: AuthorizeRequest, client: ClientConfig) throws(OAuthError) {
    guard let challenge = request.codeChallenge, let method = request.codeChallengeMethod else {
      if verifier != nil { throw OAuthError.invalidCodeVerifier }
      // Neither a secret nor PKCE: the public client did not authenticate (docs/protocol.md §2.2's
      // `Unauthorized`).
      if client.clientSecret == nil { throw OAuthError.unauthorizedClient }
      return
    }
    guard let verifier, isWellFormed(verifier: verifier),
      PKCE.verify(verifier: verifier, challenge: challenge, method: method)
    else { throw OAuthError.invalidCodeVerifier }
  }
}
