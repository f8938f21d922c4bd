import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// `POST /dbconnections/signup` and `POST /dbconnections/change_password` (docs/protocol.md §4.1, §4.2):
/// JSON or form bodies, the legacy error envelope.
struct DBConnectionRoutes {
  let tenant: MockTenant

  static let resetSent = "We've just sent you an email to reset your password."
  /// Root attributes signup copies onto the user.
  static let rootAttributes = ["given_name", "family_name", "name", "nickname", "picture", "phone_number"]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "dbConnectionSignup": { request, context in
        await LegacyError.respond(otherwise: { _ in .unprocessable }) { try await signup(request, context: context) }
      },
      "dbConnectionChangePassword": { request, context in
        await LegacyError.respond(otherwise: { _ in .unprocessable }) {
          try await changePassword(request, context: context)
        }
      },
    ]
  }

  /// The database connection a request names, enabled for `client` when there is one.
  private func connection(
    _ parameters: RequestParameters, client: ClientConfig?
  ) throws(LegacyError)
    -> ConnectionConfig
  {
    guard let name = parameters.string("connection") else { throw LegacyError.missingConnection }
    guard let connection = tenant.fixture.connection(named: name), connection.strategy == .database else {
      throw LegacyError.connectionNotFound
    }
    if let client, !connection.enabledClients.isEmpty, !connection.enabledClients.contains(client.profile) {
      throw LegacyError.connectionDisabled
    }
    return connection
  }

  private func signup(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw LegacyError.malformedBody
    }
    guard let clientID = parameters.string("client_id") else { throw LegacyError.missingClientID }
    guard let client = tenant.fixture.client(id: clientID) else { throw LegacyError.unknownClient }
    let connection = try connection(parameters, client: client)
    guard let email = parameters.string("email") else { throw LegacyError.missingEmail }
    guard Self.isEmail(email) else { throw LegacyError.invalidEmail }
    guard let password = parameters.string("password") else { throw LegacyError.missingPassword }
    let username = parameters.string("username")
    let metadata = try Self.metadata(parameters.values["user_metadata"])
    if BotDetection(tenant: tenant).isSuspicious(identifier: email) { throw LegacyError.requiresVerification }
    let protection = tenant.fixture.settings.signupEnumerationProtection
    // Checked here for the error's precedence over the password rules; checked again when the user
    // is created (``MockState/signUp(_:)``), in the same step as the insert.
    if tenant.read({ $0.users.find(email, connection: connection.name) }) != nil {
      throw protection ? LegacyError.invalidSignup : LegacyError.userExists
    }
    if let username, tenant.read({ $0.users.find(username, connection: connection.name) }) != nil {
      throw protection ? LegacyError.invalidSignup : LegacyError.usernameExists
    }
    let personalInfo = [email, username] + ["name", "nickname", "given_name", "family_name"].map(parameters.string)
    if let failure = await PasswordRules(tenant: tenant).failure(
      for: password, userID: nil, personalInfo: personalInfo)
    {
      throw failure.legacyError
    }
    let id = Self.objectID()
    var user = UserRecord(
      profile: email, userID: "auth0|\(id)", connection: connection.name, email: email, emailVerified: false,
      password: password, username: username, phoneNumber: parameters.string("phone_number"),
      name: parameters.string("name"), nickname: parameters.string("nickname"), picture: parameters.string("picture"),
      givenName: parameters.string("given_name"), familyName: parameters.string("family_name"),
      userMetadata: metadata, updatedAt: tenant.clock.seconds)
    if user.nickname == nil { user.nickname = email.split(separator: "@").first.map(String.init) }
    let created = user
    switch tenant.transact({ $0.signUp(created) }) {
    case .created: break
    case .emailTaken: throw protection ? LegacyError.invalidSignup : LegacyError.userExists
    case .usernameTaken: throw protection ? LegacyError.invalidSignup : LegacyError.usernameExists
    }
    var body: [String: Value] = ["_id": .string(id), "email": .string(email), "email_verified": .bool(false)]
    if let username { body["username"] = .string(username) }
    for key in Self.rootAttributes { if let value = parameters.string(key) { body[key] = .string(value) } }
    if !metadata.isEmpty { body["user_metadata"] = .object(metadata) }
    return Responses.json(.object(body))
  }

  /// Always 200 with the plain-text body: unknown users get no email (many tenants answer 200 to
  /// avoid user enumeration; docs/protocol.md §4.2 UNCONFIRMED, the mock picks 200).
  private func changePassword(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw LegacyError.malformedBody
    }
    var client: ClientConfig?
    if let clientID = parameters.string("client_id") {
      guard let found = tenant.fixture.client(id: clientID) else { throw LegacyError.unknownClient }
      client = found
    }
    let connection = try connection(parameters, client: client)
    guard let email = parameters.string("email") else { throw LegacyError.missingEmail }
    if let user = tenant.read({ $0.users.find(email, connection: connection.name) }), let address = user.email {
      let ticket = RandomToken.make(bytes: 24)
      let now = tenant.clock.seconds
      let link = tenant.baseURL + "lo/reset?ticket=" + FormEncoding.escape(ticket)
      let message = OutboxDraft.link(
        link, to: address, subject: "Reset your password", body: "Click the link to reset your password: \(link)")
      tenant.transact {
        $0.sendPasswordResetLink(
          ticket: ticket, userID: user.userID, email: message, now: now, expiresAt: now + BruteForce.ticketLifetime)
      }
    }
    return Responses.text(Self.resetSent)
  }

  /// `user_metadata`: an object of at most 10 string properties, keys ≤ 100 and values ≤ 500 characters.
  static func metadata(_ value: Value?) throws(LegacyError) -> [String: Value] {
    guard let value, value != .null else { return [:] }
    var object: [String: Value]
    switch value {
    case .object(let members): object = members
    case .string(let text):
      // Form bodies carry it as JSON text.
      guard case .object(let members)? = try? Value(json: Data(text.utf8)) else {
        throw LegacyError.invalidMetadata("must be an object")
      }
      object = members
    default: throw LegacyError.invalidMetadata("must be an object")
    }
    guard object.count <= 10 else { throw LegacyError.invalidMetadata("too many properties (at most 10)") }
    for (key, member) in object {
      guard key.count <= 100 else { throw LegacyError.invalidMetadata("property names are at most 100 characters") }
      guard case .string(let text) = member else { throw LegacyError.invalidMetadata("values must be strings") }
      guard text.count <= 500 else { throw LegacyError.invalidMetadata("values are at most 500 characters") }
    }
    return object
  }

  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(" ")
  }

  /// A 24-hex-digit id like Auth0's `_id`.
  static func objectID() -> String {
    (0..<12).map { _ in
      let byte = UInt8.random(in: 0...255)
      let digits = Array("0123456789abcdef")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }.joined()
  }
}
