import AuthFlowCore
import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636).
public enum PKCE {
  /// `code_challenge_method`.
  public enum Method: String, Sendable, Hashable {
    case s256 = "S256"
    case plain
  }

  /// A verifier as Auth0.swift makes it: 32 random bytes, base64url (43 characters).
  public static func generateVerifier() -> String { RandomToken.make(bytes: 32) }

  /// The challenge for `verifier`: base64url(SHA-256(ASCII verifier)) for S256, the verifier for plain.
  public static func challenge(for verifier: String, method: Method = .s256) -> String {
    switch method {
    case .s256: return Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    case .plain: return verifier
    }
  }

  /// True when `verifier` matches `challenge` under `method`; compared in constant time.
  public static func verify(verifier: String, challenge: String, method: Method) -> Bool {
    RandomToken.constantTimeEquals(PKCE.challenge(for: verifier, method: method), challenge)
  }
}

/// Random opaque strings: state, nonce, codes, session IDs.
public enum RandomToken {
  /// `bytes` random bytes, base64url without padding.
  public static func make(bytes: Int = 32) -> String {
    // Eight bytes per draw of the system generator (one `getrandom` each), not one byte per draw.
    var generator = SystemRandomNumberGenerator()
    var random: [UInt8] = []
    random.reserveCapacity(bytes + 8)
    while random.count < bytes {
      withUnsafeBytes(of: generator.next() as UInt64) { random.append(contentsOf: $0) }
    }
    return Base64URL.encode(random.prefix(max(0, bytes)))
  }

  /// Compares two strings without an early exit on the first differing byte.
  public static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    constantTimeEquals(Array(lhs.utf8), Array(rhs.utf8))
  }

  /// Compares two byte strings (an HMAC and the one expected) without an early exit.
  public static func constantTimeEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
    let left = Array(lhs)
    let right = Array(rhs)
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in left.indices { difference |= left[index] ^ right[index] }
    return difference == 0
  }
}
