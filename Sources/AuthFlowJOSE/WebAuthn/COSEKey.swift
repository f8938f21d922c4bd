public import Crypto

/// A COSE_Key (RFC 9053) for EC2 P-256 with ES256 (alg -7): the only credential key the mock and
/// the virtual authenticator use.
public struct COSEKey: Sendable {
  public let publicKey: P256.Signing.PublicKey

  public init(publicKey: P256.Signing.PublicKey) {
    self.publicKey = publicKey
  }

  /// Reads an EC2 P-256 ES256 key; nil for any other kind.
  public init?(cbor: CBOR) {
    guard cbor[label: 1]?.intValue == 2, cbor[label: 3]?.intValue == -7, cbor[label: -1]?.intValue == 1,
      let x = cbor[label: -2]?.bytesValue, let y = cbor[label: -3]?.bytesValue, x.count == 32, y.count == 32,
      let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
    else { return nil }
    publicKey = key
  }

  /// `{1: 2, 3: -7, -1: 1, -2: x, -3: y}`.
  public var cbor: CBOR {
    let point = Array(publicKey.x963Representation)
    return .map([
      .int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1),
      .int(-2): .bytes(Array(point[1..<33])), .int(-3): .bytes(Array(point[33..<65])),
    ])
  }
}
