import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// The My Account API (docs/protocol.md §6): `/me/v1/authentication-methods` (list, start an enrollment,
/// verify it, get, rename, delete) and `/me/v1/factors`, for the user of a bearer token whose
/// audience is `<issuer>me/` and whose scope names the operation's permission. Errors are
/// RFC 7807 (`MyAccountError`).
struct MyAccountRoutes {
  let tenant: MockTenant

  /// The permission each operation needs.
  enum Permission {
    static let create = "create:me:authentication_methods"
    static let read = "read:me:authentication_methods"
    static let update = "update:me:authentication_methods"
    static let delete = "delete:me:authentication_methods"
    static let factors = "read:me:factors"
  }

  static let methodsPath = "/me/v1/authentication-methods"

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "myAccountListAuthenticationMethods": { request, _ in
        await respond { try await list(request) }
      },
      "myAccountEnrollAuthenticationMethod": { request, context in
        await respond { try await enroll(request, context: context) }
      },
      "myAccountGetAuthenticationMethod": { request, context in
        await respond { try await get(request, id: Self.methodID(context)) }
      },
      "myAccountUpdateAuthenticationMethod": { request, context in
        await respond { try await update(request, context: context, id: Self.methodID(context)) }
      },
      "myAccountDeleteAuthenticationMethod": { request, context in
        await respond { try await delete(request, id: Self.methodID(context)) }
      },
      "myAccountVerifyAuthenticationMethod": { request, context in
        await respond { try await verify(request, context: context, id: Self.methodID(context)) }
      },
      "myAccountListFactors": { request, _ in
        await respond { try await factors(request) }
      },
    ]
  }

  /// The `{id}` path segment, percent-decoded (`passkey%7Cnew` → `passkey|new`).
  static func methodID(_ context: BasicRequestContext) -> String {
    let raw = context.parameters.get("id") ?? ""
    return raw.removingPercentEncoding ?? raw
  }

  private func respond(_ body: () async throws -> Response) async -> Response {
    await MyAccountError.respond(otherwise: { _ in .malformedBody }, body)
  }

  /// The caller: a valid My Account token carrying `permission`, issued to an existing user.
  func caller(_ request: Request, permission: String) async throws(MyAccountError) -> (BearerToken, UserRecord) {
    let audience = tenant.issuer + "me/"
    let token: BearerToken
    do {
      token = try BearerToken.verify(request, tenant: tenant, audience: audience)
    } catch .missing {
      throw .missingToken
    } catch .wrongAudience {
      throw .wrongAudience(audience)
    } catch {
      throw .invalidToken
    }
    guard token.scopes.contains(permission) else { throw .insufficientScope(permission) }
    guard !token.isClientCredentials, let subject = token.subject else { throw .notAUser }
    guard let user = tenant.user(id: subject) else { throw .userNotFound }
    return (token, user)
  }

  private func list(_ request: Request) async throws -> Response {
    let (_, user) = try await caller(request, permission: Permission.read)
    var methods = await MyAccountMethods(tenant: tenant).all(of: user)
    if let type = RequestParameters.query(of: request).string("type") {
      methods = methods.filter { $0.member("type")?.stringValue == type }
    }
    // The SDK's shape (docs/protocol.md §6: the docs' bare array conflicts; the SDK wins).
    return Responses.json(.object(["authentication_methods": .array(methods)]))
  }

  private func get(_ request: Request, id: String) async throws -> Response {
    let (_, user) = try await caller(request, permission: Permission.read)
    guard let method = await MyAccountMethods(tenant: tenant).method(id: id, of: user) else {
      throw MyAccountError.methodNotFound
    }
    return Responses.json(method)
  }

  /// `PATCH {"name"?, "preferred_authentication_method"?}`: a passkey's name, a phone's channel.
  private func update(_ request: Request, context: BasicRequestContext, id: String) async throws -> Response {
    let (_, user) = try await caller(request, permission: Permission.update)
    guard let body = await RequestParameters.body(of: request, context: context) else {
      throw MyAccountError.malformedBody
    }
    if let other = body.values.keys.sorted().first(where: { !["name", "preferred_authentication_method"].contains($0) })
    {
      throw MyAccountError.invalidBody(other, "Unknown property: \(other)")
    }
    let methods = MyAccountMethods(tenant: tenant)
    guard await methods.method(id: id, of: user) != nil else { throw MyAccountError.methodNotFound }
    let name = body.values["name"]
    if let name, name.stringValue == nil, !name.isNull { throw MyAccountError.invalidBody("name", "must be a string") }
    if let credentialID = MyAccountMethods.passkeyCredentialID(id) {
      if body.has("preferred_authentication_method") {
        throw MyAccountError.invalidBody("preferred_authentication_method", "Only phone methods have one")
      }
      if let name {
        guard tenant.transact({ $0.renamePasskey(credentialID, userID: user.userID, to: name.stringValue) }) else {
          throw MyAccountError.methodNotFound
        }
      }
    } else if let method = tenant.read({ $0.myAccount.method(id: id, userID: user.userID) }) {
      let channel = body.string("preferred_authentication_method")
      if let channel, method.type != "phone" || !["sms", "voice"].contains(channel) {
        throw MyAccountError.invalidBody("preferred_authentication_method", "Must be sms or voice, on a phone method")
      }
      // The change is applied to the stored method, in one step (a concurrent change is kept).
      guard
        tenant.transact({ $0.updateEnrolledMethod(id, userID: user.userID, name: name, preferredChannel: channel) })
          != nil
      else { throw MyAccountError.methodNotFound }
    } else {
      throw MyAccountError.methodNotUpdatable
    }
    return Responses.json(await methods.method(id: id, of: user) ?? .object([:]))
  }

  /// `DELETE`: passkeys and enrolled factors; never the user's last way to log in.
  private func delete(_ request: Request, id: String) async throws -> Response {
    let (_, user) = try await caller(request, permission: Permission.delete)
    let methods = MyAccountMethods(tenant: tenant)
    guard await methods.method(id: id, of: user) != nil else { throw MyAccountError.methodNotFound }
    if let credentialID = MyAccountMethods.passkeyCredentialID(id) {
      // Checked and deleted in one step: two deletes at once never remove the last way to log in.
      switch tenant.transact({ $0.removePasskey(credentialID, userID: user.userID) }) {
      case .removed: break
      case .notFound: throw MyAccountError.methodNotFound
      case .lastMethod: throw MyAccountError.lastMethod
      }
    } else if tenant.transact({ $0.removeEnrolledMethod(id, userID: user.userID) }) == nil {
      // The password and the fixture's factors are not deletable here. (A method's MFA factor went
      // with it, in the same step.)
      throw MyAccountError.lastMethod
    }
    return Responses.empty(status: .noContent)
  }

  /// `GET /me/v1/factors`: the factor types the tenant offers, and whether the user has each.
  private func factors(_ request: Request) async throws -> Response {
    let (_, user) = try await caller(request, permission: Permission.factors)
    let enrolled = Set(
      await MyAccountMethods(tenant: tenant).all(of: user).compactMap { $0.member("type")?.stringValue })
    let factors: [Value] = MyAccountMethods.factorTypes.map { type, usage in
      .object([
        "type": .string(type), "usage": .array(usage.map(Value.string)), "enrolled": .bool(enrolled.contains(type)),
      ])
    }
    return Responses.json(.object(["factors": .array(factors)]))
  }
}
