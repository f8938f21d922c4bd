import AuthFlowJOSE
import Synchronization

extension MockTenant {
  /// A JWT the tenant itself issued: signed with a published key under the rules of
  /// `VerificationKeys` (no `none`, no HS256 with the public key, known `kid`), and not one that
  /// `/__mock/sign` made to order. Claims are the caller's to check.
  func verifyIssued(_ token: String) -> CompactJWS? {
    guard let jws = try? verificationKeys.verify(token) else { return nil }
    let signature = Self.signatureSegment(of: token)
    if mintedSignatures.withLock({ $0.contains(signature) }) { return nil }
    return jws
  }

  /// Remembers a token `/__mock/sign` made, so the tenant's endpoints never accept it (the
  /// latest `maxEntriesPerStore`; past that an arbitrary old one is forgotten).
  func recordMinted(_ token: String) {
    let signature = Self.signatureSegment(of: token)
    let capacity = max(1, limits.maxEntriesPerStore)
    mintedSignatures.withLock { signatures in
      if signatures.count >= capacity, !signatures.contains(signature) { signatures.removeFirst() }
      signatures.insert(signature)
    }
  }

  private static func signatureSegment(of token: String) -> String {
    token.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? token
  }
}
