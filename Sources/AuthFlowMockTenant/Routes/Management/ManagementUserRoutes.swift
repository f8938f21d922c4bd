import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// Management API v2 users (docs/protocol.md §7): get (with `fields`/`include_fields`), patch
/// `user_metadata` (merge), link (`link_with`: a secondary ID token) and unlink, with the
/// current-user rules for user-context tokens.
struct ManagementUserRoutes {
  let tenant: MockTenant

  static let readScopes = ["read:users", "read:current_user"]
  static let patchScopes = [
    "update:users", "update:current_user_metadata", "create:current_user_metadata", "delete:current_user_metadata",
  ]
  /// What a user-context token needs to set `user_metadata` keys, and to delete them (a key set to
  /// null; docs/protocol.md §7's current-user scopes).
  static let setMetadataScopes = ["update:current_user_metadata", "create:current_user_metadata"]
  static let deleteMetadataScopes = ["delete:current_user_metadata"]
  static let identityScopes = ["update:users", "update:current_user_identities"]
  /// Scopes that let a token act on any user.
  static let adminScopes: Set<String> = ["read:users", "update:users"]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "managementGetUser": { request, context in
        await respond { try await get(request, id: context.parameters.get("id")) }
      },
      "managementUpdateUser": { request, context in
        await respond { try await patch(request, context: context, id: context.parameters.get("id")) }
      },
      "managementLinkIdentity": { request, context in
        await respond { try await link(request, context: context, id: context.parameters.get("id")) }
      },
      "managementUnlinkIdentity": { request, context in
        await respond {
          try await unlink(
            request, id: context.parameters.get("id"), provider: context.parameters.get("provider"),
            secondary: context.parameters.get("secondary"))
        }
      },
    ]
  }

  private func respond(_ body: () async throws -> Response) async -> Response {
    await ManagementError.respond(
      otherwise: { ManagementError(status: .badRequest, message: "\($0)", errorCode: "invalid_body") }, body)
  }

  /// The caller's token and the target user, with the scope and current-user rules applied.
  private func authorize(
    _ request: Request, id rawID: String?, anyOf scopes: [String]
  ) async throws -> (BearerToken, UserRecord) {
    let token = try BearerToken.management(request, tenant: tenant)
    let granted = token.managementScopes
    guard scopes.contains(where: granted.contains) else { throw ManagementError.insufficientScope(scopes) }
    let id = rawID.map { $0.removingPercentEncoding ?? $0 } ?? ""
    // Current-user rule: a user-context token acts only on its own user, whatever its scopes.
    if !token.isClientCredentials, token.subject != id {
      throw ManagementError.notCurrentUser(scopes.filter(Self.adminScopes.contains))
    }
    guard let user = tenant.user(id: id) else { throw ManagementError.userNotFound }
    return (token, user)
  }

  private func get(_ request: Request, id: String?) async throws -> Response {
    let (_, user) = try await authorize(request, id: id, anyOf: Self.readScopes)
    var object = await userObject(user)
    let query = RequestParameters.query(of: request)
    if let fields = query.string("fields") {
      let names = Set(fields.split(separator: ",").map { String($0).trimmingWhitespace() })
      let include = query.string("include_fields") != "false"
      object = object.filter { names.contains($0.key) == include }
    }
    return Responses.json(.object(object))
  }

  private func patch(_ request: Request, context: BasicRequestContext, id: String?) async throws -> Response {
    let (token, user) = try await authorize(request, id: id, anyOf: Self.patchScopes)
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw ManagementError.malformedBody
    }
    if let other = parameters.values.keys.sorted().first(where: { $0 != "user_metadata" }) {
      throw ManagementError.additionalProperty(other)
    }
    var updated = user
    if let metadata = parameters.values["user_metadata"] {
      guard let members = metadata.objectValue else { throw ManagementError.metadataNotObject }
      // A user-context token sets keys with create/update:current_user_metadata and deletes them
      // (null) only with delete:current_user_metadata; `update:users` (client credentials) does all.
      if !token.isClientCredentials {
        let granted = token.managementScopes
        if members.values.contains(where: \.isNull), !Self.deleteMetadataScopes.contains(where: granted.contains) {
          throw ManagementError.insufficientScope(Self.deleteMetadataScopes)
        }
        if members.values.contains(where: { !$0.isNull }), !Self.setMetadataScopes.contains(where: granted.contains) {
          throw ManagementError.insufficientScope(Self.setMetadataScopes)
        }
      }
      // Merged into the stored user in one step: top-level keys replace, null removes.
      let now = tenant.clock.seconds
      guard let merged = tenant.transact({ $0.mergeUserMetadata(members, userID: user.userID, now: now) }) else {
        throw ManagementError.userNotFound
      }
      updated = merged
    }
    return Responses.json(.object(await userObject(updated)))
  }

  private func link(_ request: Request, context: BasicRequestContext, id: String?) async throws -> Response {
    let (token, user) = try await authorize(request, id: id, anyOf: Self.identityScopes)
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw ManagementError.malformedBody
    }
    if token.isClientCredentials, parameters.string("link_with") == nil, let provider = parameters.string("provider"),
      let secondary = parameters.string("user_id")
    {
      // The admin form (`update:users`): the secondary identity by provider and id.
      return try await link(secondaryID: provider + "|" + secondary, to: user)
    }
    guard let linkWith = parameters.string("link_with") else { throw ManagementError.missingLinkWith }
    guard let jws = tenant.verifyIssued(linkWith), jws.algorithmName == "RS256",
      jws.claims["iss"]?.stringValue == tenant.issuer, let secondaryID = jws.claims["sub"]?.stringValue,
      let expiry = jws.claims["exp"]?.doubleValue, expiry > tenant.clock.seconds
    else { throw ManagementError.invalidLinkToken }
    // The secondary ID token must have been issued to the app that holds the calling token.
    let audiences = jws.claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? [jws.claims["aud"]?.stringValue ?? ""]
    guard let azp = token.authorizedParty, audiences.contains(azp) else { throw ManagementError.linkAudienceMismatch }
    return try await link(secondaryID: secondaryID, to: user)
  }

  /// Links the user `secondaryID` to `user`: the primary's identities, 201 (UNCONFIRMED, docs/protocol.md §7).
  private func link(secondaryID: String, to user: UserRecord) async throws -> Response {
    guard secondaryID != user.userID else { throw ManagementError.linkSameUser }
    guard let secondary = tenant.user(id: secondaryID) else {
      throw ManagementError.userNotFound
    }
    var identity = Self.identity(of: secondary)
    identity["profileData"] = .object(
      UserClaims.attributes(of: secondary).filter { ["email", "email_verified", "name"].contains($0.key) })
    let linked = Value.object(identity)
    guard tenant.transact({ $0.linkIdentity(linked, secondaryID: secondaryID, to: user.userID) }) else {
      throw ManagementError.alreadyLinked
    }
    return Responses.json(.array(await identities(of: user)), status: .created)
  }

  private func unlink(_ request: Request, id: String?, provider: String?, secondary: String?) async throws -> Response {
    let (_, user) = try await authorize(request, id: id, anyOf: Self.identityScopes)
    let secondaryID = secondary.map { $0.removingPercentEncoding ?? $0 } ?? ""
    guard let provider,
      tenant.transact({ $0.unlinkIdentity(provider: provider, userID: secondaryID, from: user.userID) })
    else { throw ManagementError.identityNotFound }
    return Responses.json(.array(await identities(of: user)))
  }

  /// The user object of the Management API.
  func userObject(_ user: UserRecord) async -> [String: Value] {
    var object = UserClaims.attributes(of: user)
    object["user_id"] = .string(user.userID)
    object["user_metadata"] = .object(user.userMetadata)
    object["app_metadata"] = .object(user.appMetadata)
    object["created_at"] = .string(UserClaims.isoMilliseconds(1_700_000_000))
    if let username = user.username { object["username"] = .string(username) }
    // The Management API says `phone_verified`; tokens say `phone_number_verified`.
    if let verified = object.removeValue(forKey: "phone_number_verified") { object["phone_verified"] = verified }
    if user.blocked { object["blocked"] = .bool(true) }
    object["identities"] = .array(await identities(of: user))
    return object
  }

  private func identities(of user: UserRecord) async -> [Value] {
    [.object(Self.identity(of: user))] + tenant.read({ $0.identityLinks.identities(of: user.userID) })
  }

  static func identity(of user: UserRecord) -> [String: Value] {
    let parts = user.userID.split(separator: "|", maxSplits: 1).map(String.init)
    let provider = parts.count == 2 ? parts[0] : "auth0"
    return [
      "connection": .string(user.connection), "provider": .string(provider),
      "user_id": .string(parts.last ?? user.userID), "isSocial": .bool(!["auth0", "email", "sms"].contains(provider)),
    ]
  }
}
