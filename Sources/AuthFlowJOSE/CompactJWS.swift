public import AuthFlowCore
public import Foundation

/// A compact JWS split into its parts and decoded, not verified.
public struct CompactJWS: Sendable, Hashable {
  /// The token as given.
  public let raw: String
  /// The decoded protected header.
  public let header: [String: Value]
  /// The decoded payload, when it is a JSON object (JWT claims).
  public let claims: [String: Value]
  /// The raw signature bytes.
  public let signature: Data
  /// `base64url(header) + "." + base64url(payload)`: the bytes that were signed.
  public let signingInput: Data

  /// Splits and decodes `raw`. Throws `JWSError` (reason `.malformed`) when it is not a compact JWS
  /// whose header and payload are JSON objects.
  public init(parsing raw: String) throws(JWSError) {
    let parts = raw.splitting(atASCII: UInt8(ascii: "."))
    guard parts.count == 3 else { throw .malformed("expected three dot-separated parts") }
    // Each part is parsed once, rejecting repeated member names (RFC 7515 §5.2 / RFC 7519 §4: a
    // repeated name is rejected, never resolved silently); only a part that fails is parsed again,
    // leniently, to tell a duplicate member from JSON that is not an object.
    let headerData = Base64URL.decode(parts[0])
    let strictHeader = headerData.flatMap { try? Value(json: $0, rejectingDuplicateKeys: true) }
    guard case .object(let header)? = strictHeader ?? headerData.flatMap({ try? Value(json: $0) }) else {
      throw .malformed("the header is not base64url JSON")
    }
    let claimsData = Base64URL.decode(parts[1])
    let strictClaims = claimsData.flatMap { try? Value(json: $0, rejectingDuplicateKeys: true) }
    guard case .object(let claims)? = strictClaims ?? claimsData.flatMap({ try? Value(json: $0) }) else {
      throw .malformed("the payload is not base64url JSON")
    }
    guard strictHeader != nil else { throw .duplicateMember(part: "header") }
    guard strictClaims != nil else { throw .duplicateMember(part: "payload") }
    guard let signature = Base64URL.decode(parts[2]) else {
      throw .malformed("the signature is not base64url")
    }
    self.raw = raw
    self.header = header
    self.claims = claims
    self.signature = signature
    self.signingInput = Data(raw.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
  }

  /// The header `alg`, if it is a string.
  public var algorithmName: String? { header["alg"]?.stringValue }
  /// The header `kid`, if it is a string.
  public var keyID: String? { header["kid"]?.stringValue }
}
