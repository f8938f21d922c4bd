import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `POST /passwordless/start` (docs/protocol.md §4.3): sends a code to the outbox (`send=code`; links are
/// refused).
struct PasswordlessRoutes {
  let tenant: MockTenant

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "passwordlessStart": { request, context in
        await OAuthError.respond { try await start(request, context: context) }
      }
    ]
  }

  static let missingClientID = OAuthError(
    status: .badRequest, code: "bad.client_id", description: "Missing required property: client_id")
  static let unknownConnection = OAuthError(
    status: .badRequest, code: "bad.connection", description: "Connection does not exist")
  static let missingConnection = OAuthError(
    status: .badRequest, code: "bad.connection", description: "Missing required property: connection")
  static let badEmail = OAuthError(
    status: .badRequest, code: "bad.email", description: "Missing required property: email")
  static let badPhone = OAuthError(
    status: .badRequest, code: "bad.phone_number", description: "String does not match pattern: ^\\+[0-9]{1,15}$")

  /// The body's properties Auth0's schema for `/passwordless/start` admits (docs/protocol.md §4.3), with the
  /// client authentication a confidential application adds (auth0-python sends `client_secret`).
  static let allowedProperties: Set<String> = [
    "client_id", "client_secret", "client_assertion", "client_assertion_type", "connection", "email", "phone_number",
    "send", "authParams",
  ]

  /// Any other property (docs/protocol.md §4.3, `bad.request`): a typo (`phone` for `phone_number`) is
  /// named, not ignored. Sorted, so the description does not depend on the body's order.
  static func notAllowed(_ names: [String]) -> OAuthError {
    OAuthError(
      status: .badRequest, code: "bad.request",
      description: "the following properties are not allowed: \(names.sorted().joined(separator: ", "))")
  }

  /// `authParams` that is not an object. docs/protocol.md §4.3 names the code; the description is UNCONFIRMED.
  static let authParamsNotAnObject = OAuthError(
    status: .badRequest, code: "bad.authParams", description: "authParams must be an object")

  /// `send` other than `code`: the mock sends no magic links, and says so rather than sending a code.
  static func linksNotSupported(_ send: String) -> OAuthError {
    OAuthError(
      status: .badRequest, code: "bad.request",
      description: "send=\(send) is not supported by the mock tenant: it sends one-time codes only (send=code)")
  }

  private func start(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    guard let clientID = parameters.string("client_id") else { throw Self.missingClientID }
    let unknown = parameters.values.keys.filter { !Self.allowedProperties.contains($0) }
    if !unknown.isEmpty { throw Self.notAllowed(unknown) }
    if let authParams = parameters.values["authParams"] {
      guard case .object = authParams else { throw Self.authParamsNotAnObject }
    }
    if let send = parameters.string("send"), send != "code" { throw Self.linksNotSupported(send) }
    guard tenant.fixture.client(id: clientID) != nil else { throw OAuthError.unauthorizedClient }
    guard let name = parameters.string("connection") else { throw Self.missingConnection }
    guard let connection = tenant.fixture.connection(named: name),
      connection.strategy == .email || connection.strategy == .sms
    else { throw Self.unknownConnection }
    let address: String
    let body: [String: Value]
    if connection.strategy == .email {
      guard let email = parameters.string("email"), email.contains("@") else { throw Self.badEmail }
      address = email
      body = ["_id": .string(RandomToken.make(bytes: 12)), "email": .string(email), "email_verified": .bool(false)]
    } else {
      guard let phone = parameters.string("phone_number"), PasswordlessRoutes.isE164(phone) else { throw Self.badPhone }
      address = phone
      body = [
        "_id": .string(RandomToken.make(bytes: 12)), "phone_number": .string(phone), "phone_verified": .bool(false),
        "request_language": .null,
      ]
    }
    await PasswordlessCodes(tenant: tenant).send(connection: connection, address: address)
    // The 200 body's exact keys are UNCONFIRMED (docs/protocol.md §4.3); these are its examples.
    return Responses.json(.object(body))
  }

  static func isE164(_ text: String) -> Bool {
    let digits = text.dropFirst()
    return text.hasPrefix("+") && (1...15).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }
}

/// A six-digit code with leading zeros.
func sixDigits(_ number: Int) -> String {
  let text = "\(number)"
  return String(repeating: "0", count: max(0, 6 - text.count)) + text
}
