import AuthFlowJOSE
import Synchronization

extension MockTenant {
  /// A JWT the tenant itself issued: signed with a published key under the rules of
  /// `VerificationKeys` (no `none`, no HS256 with the public key, known `kid`), and not one that
  /// `/__mock/sign` made to order. Claims are the caller's to check.
  func verifyIssued(_ token: String) -> CompactJWS? {
    guard let jws = try? verificationKeys.verify(token) else { return nil }
    let signature = Self.signatureSegment(of: token)
    if read({ $0.mintedSignatures.contains(signature) }) { return nil }
    return jws
  }

  /// The key `/__mock/sign` signs with: made once per tenant (it survives reset and rotation), with
  /// a `kid` of its own. Tenant tokens are verified with ``verificationKeys``, which never holds it.
  func mintingKey() throws -> SigningKey {
    if let key = mintingKeyStore.withLock({ $0 }) { return key }
    let made = try SigningKey.generateRSA(kid: "mock-sign-" + String(UInt64.random(in: 0...UInt64.max), radix: 36))
    return mintingKeyStore.withLock { stored in
      if let stored { return stored }
      stored = made
      return made
    }
  }

  /// The published JWKS: the tenant's keys (current first), then the `/__mock/sign` key once made.
  var publishedJWKS: JWKSet {
    var keys = verificationKeys.jwks.keys
    if let minting = mintingKeyStore.withLock({ $0 })?.publicJWK { keys.append(minting) }
    return JWKSet(keys: keys)
  }

  /// Remembers a token `/__mock/sign` made, so the tenant's endpoints never accept it (the
  /// latest `maxEntriesPerStore`; past that an arbitrary old one is forgotten).
  func recordMinted(_ token: String) {
    let signature = Self.signatureSegment(of: token)
    let capacity = max(1, limits.maxEntriesPerStore)
    transact { $0.recordMintedSignature(signature, capacity: capacity) }
  }

  private static func signatureSegment(of token: String) -> String {
    token.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? token
  }
}
