import AuthFlowCore
import Crypto
import Foundation

/// `at_hash` and `c_hash` (OpenID Connect Core §3.1.3.6, §3.3.2.11): the base64url of the left
/// half of the hash of the access token's (or code's) ASCII text, with the hash of the ID token's
/// `alg` (SHA-512 for EdDSA with Ed25519).
public enum TokenHash {
  /// The hash `alg` gives `text`; nil for `none`.
  public static func value(of text: String, algorithm: JWSAlgorithm) -> String? {
    let data = Data(text.utf8)
    let digest: [UInt8]
    switch algorithm.hashBits {
    case 256: digest = Array(SHA256.hash(data: data))
    case 384: digest = Array(SHA384.hash(data: data))
    case 512: digest = Array(SHA512.hash(data: data))
    default: return nil
    }
    return Base64URL.encode(digest.prefix(digest.count / 2))
  }
}
