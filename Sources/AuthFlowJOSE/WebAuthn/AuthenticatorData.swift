import Crypto
import Foundation

/// WebAuthn authenticator data: `rpIdHash(32) ‖ flags(1) ‖ signCount(4) ‖ attestedCredentialData?`.
public struct AuthenticatorData: Sendable {
  /// The flag bits.
  public struct Flags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// User present.
    public static let userPresent = Flags(rawValue: 0x01)
    /// User verified.
    public static let userVerified = Flags(rawValue: 0x04)
    /// Backup eligible.
    public static let backupEligible = Flags(rawValue: 0x08)
    /// Backed up.
    public static let backedUp = Flags(rawValue: 0x10)
    /// Attested credential data included.
    public static let attestedCredentialData = Flags(rawValue: 0x40)
    /// Extension data included.
    public static let extensionData = Flags(rawValue: 0x80)
  }

  /// The credential created by a registration.
  public struct AttestedCredential: Sendable {
    public var aaguid: [UInt8]
    public var credentialID: [UInt8]
    public var publicKey: COSEKey

    public init(aaguid: [UInt8], credentialID: [UInt8], publicKey: COSEKey) {
      self.aaguid = aaguid
      self.credentialID = credentialID
      self.publicKey = publicKey
    }
  }

  public var rpIDHash: [UInt8]
  public var flags: Flags
  public var signCount: UInt32
  public var attestedCredential: AttestedCredential?

  public init(rpIDHash: [UInt8], flags: Flags, signCount: UInt32, attestedCredential: AttestedCredential? = nil) {
    self.rpIDHash = rpIDHash
    self.flags = flags
    self.signCount = signCount
    self.attestedCredential = attestedCredential
  }

  /// SHA-256 of the relying party id.
  public static func rpIDHash(_ rpID: String) -> [UInt8] { Array(SHA256.hash(data: Data(rpID.utf8))) }

  /// Parses authenticator data; nil when malformed.
  public init?(bytes: [UInt8]) {
    guard bytes.count >= 37 else { return nil }
    rpIDHash = Array(bytes[0..<32])
    flags = Flags(rawValue: bytes[32])
    signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
    guard flags.contains(.attestedCredentialData) else {
      attestedCredential = nil
      return
    }
    guard bytes.count >= 55 else { return nil }
    let aaguid = Array(bytes[37..<53])
    let length = Int(bytes[53]) << 8 | Int(bytes[54])
    guard bytes.count >= 55 + length else { return nil }
    let credentialID = Array(bytes[55..<(55 + length)])
    var decoder = CBORDecoder(bytes, offset: 55 + length)
    guard let item = try? decoder.decodeItem(), let key = COSEKey(cbor: item) else { return nil }
    attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key)
  }

  /// The encoded bytes.
  public var bytes: [UInt8] {
    var output = rpIDHash
    var flags = self.flags
    if attestedCredential != nil { flags.insert(.attestedCredentialData) }
    output.append(flags.rawValue)
    output += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: signCount >> UInt32($0)) }
    if let credential = attestedCredential {
      output += credential.aaguid
      output += [
        UInt8(truncatingIfNeeded: credential.credentialID.count >> 8),
        UInt8(truncatingIfNeeded: credential.credentialID.count),
      ]
      output += credential.credentialID
      output += credential.publicKey.cbor.encoded
    }
    return output
  }
}
