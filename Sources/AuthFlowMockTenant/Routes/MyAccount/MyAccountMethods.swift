import AuthFlowCore
import AuthFlowJOSE
import Foundation

/// The authentication-method objects of the My Account API (docs/protocol.md §6): the user's password
/// (database users), passkeys, the fixture's MFA enrolments and the factors enrolled through the
/// API.
struct MyAccountMethods {
  let tenant: MockTenant

  /// The factor types of `GET /me/v1/factors` and their usage (shape UNCONFIRMED; the mock's).
  static let factorTypes: [(type: String, usage: [String])] = [
    ("passkey", ["primary"]), ("password", ["primary"]), ("totp", ["secondary"]),
    ("push-notification", ["secondary"]), ("recovery-code", ["secondary"]), ("email", ["secondary"]),
    ("phone", ["secondary"]),
  ]

  /// The id of a passkey method names its credential: `passkey|<credential id>`.
  static let passkeyPrefix = "passkey|"
  /// The id of a passkey enrollment in progress (docs/protocol.md §6: the `Location` names it).
  static let newPasskeyID = "passkey|new"

  /// The credential id of a passkey method id, or nil for other methods.
  static func passkeyCredentialID(_ id: String) -> String? {
    guard id.hasPrefix(passkeyPrefix), id != newPasskeyID else { return nil }
    return String(id.dropFirst(passkeyPrefix.count))
  }

  /// `identity_user_id`: the user id without its provider prefix (`auth0|abc` → `abc`).
  static func identityUserID(_ user: UserRecord) -> String {
    user.userID.split(separator: "|", maxSplits: 1).last.map(String.init) ?? user.userID
  }

  /// Every method of `user`, oldest first within each kind.
  func all(of user: UserRecord) async -> [Value] {
    var result: [Value] = []
    if user.password != nil {
      result.append(
        .object([
          "id": .string("password|\(Self.identityUserID(user))"), "type": .string("password"),
          "identity_user_id": .string(Self.identityUserID(user)), "confirmed": .bool(true),
          "created_at": .string(UserClaims.isoMilliseconds(1_700_000_000)),
        ]))
    }
    for credential in tenant.read({ $0.passkeys.credentials(userID: user.userID) }) {
      result.append(passkey(credential, user: user))
    }
    let enrolled = tenant.read({ $0.myAccount.methods(userID: user.userID) })
    // Factors that came from My Account methods (``MockState/confirmEnrollment(_:)``) are listed as those methods.
    let fromMethods = Set(enrolled.compactMap(\.factor))
    for (index, factor) in user.mfa.enumerated() where !fromMethods.contains(factor) {
      let type: String
      switch factor.kind {
      case .totp: type = "totp"
      case .sms: type = "phone"
      case .email: type = "email"
      case .recoveryCode: type = "recovery-code"
      }
      var object: [String: Value] = [
        "id": .string("\(type)|dev_fixture\(index)"), "type": .string(type), "confirmed": .bool(true),
        "created_at": .string(UserClaims.isoMilliseconds(1_700_000_000)),
      ]
      if factor.kind == .sms { object["phone_number"] = .string(factor.secret) }
      if factor.kind == .email { object["email"] = .string(factor.secret) }
      result.append(.object(object))
    }
    for method in enrolled {
      result.append(Self.object(method))
    }
    return result
  }

  /// The method `id` of `user`.
  func method(id: String, of user: UserRecord) async -> Value? {
    await all(of: user).first { $0.member("id")?.stringValue == id }
  }

  /// A passkey as docs/protocol.md §6's verify response shows it.
  func passkey(_ credential: PasskeyCredential, user: UserRecord) -> Value {
    var object: [String: Value] = [
      "id": .string(Self.passkeyPrefix + credential.id), "type": .string("passkey"),
      "identity_user_id": .string(Self.identityUserID(user)), "key_id": .string(credential.id),
      "public_key": .string(Data(credential.publicKey.cbor.encoded).base64EncodedString()),
      "user_handle": .string(credential.userHandle),
      "credential_device_type": .string(credential.backupEligible ? "multi_device" : "single_device"),
      "credential_backed_up": .bool(credential.backedUp),
      "created_at": .string(UserClaims.isoMilliseconds(credential.createdAt)),
      "aaguid": .string(Self.uuid(credential.aaguid)), "relying_party_id": .string(tenant.host),
    ]
    if let agent = credential.userAgent { object["user_agent"] = .string(agent) }
    if let name = credential.name { object["name"] = .string(name) }
    return .object(object)
  }

  /// A confirmed method enrolled through the API.
  static func object(_ method: EnrolledMethod) -> Value {
    var object = method.details
    object["id"] = .string(method.id)
    object["type"] = .string(method.type)
    object["confirmed"] = .bool(true)
    object["created_at"] = .string(UserClaims.isoMilliseconds(method.createdAt))
    if let name = method.name { object["name"] = .string(name) }
    return .object(object)
  }

  /// 16 bytes as a UUID string (`00000000-0000-0000-0000-000000000000`).
  static func uuid(_ bytes: [UInt8]) -> String {
    let hex = bytes.map { String(format: "%02x", $0) }.joined()
    guard hex.count == 32 else { return hex }
    let characters = Array(hex)
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
  }
}
