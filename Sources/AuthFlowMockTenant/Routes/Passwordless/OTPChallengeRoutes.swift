import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `POST /otp/challenge` (docs/protocol.md §4.4, EA): passwordless login on a database connection. The
/// answer is `{"auth_session"}` whether or not the user exists (no user enumeration); the code goes
/// to the outbox when the user exists or `allow_signup` is true. The token step is
/// `TokenRoutes.otpChallengeLogin`.
struct OTPChallengeRoutes {
  let tenant: MockTenant

  /// How long an `auth_session` stays valid, seconds (the passwordless code lifetime).
  static let lifetime = PasswordlessCodes.lifetime

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "otpChallenge": { request, context in
        await OAuthError.respond(otherwise: { .invalidRequest("\($0)") }) {
          try await challenge(request, context: context)
        }
      }
    ]
  }

  static let badDeliveryMethod = OAuthError.invalidRequest("delivery_method must be text or voice")
  static let missingIdentifier = OAuthError.invalidRequest("Missing required parameter: email or phone_number")
  static let badEmail = OAuthError.invalidRequest("Invalid email")

  private func challenge(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    guard let clientID = parameters.string("client_id") else { throw OAuthError.missingClientID }
    guard let client = tenant.fixture.client(id: clientID) else { throw OAuthError.unauthorizedClient }
    guard client.grantTypes.contains(TokenRoutes.GrantType.passwordlessOTP) else {
      throw OAuthError.grantNotAllowed(TokenRoutes.GrantType.passwordlessOTP)
    }
    guard let name = parameters.string("connection") else { throw OAuthError.missingParameter("connection") }
    guard let connection = tenant.fixture.connection(named: name), connection.strategy == .database else {
      throw OAuthError.connectionNotFound
    }
    guard connection.enabledClients.isEmpty || connection.enabledClients.contains(client.profile) else {
      throw OAuthError.connectionDisabled
    }
    let identifier: String
    let isPhone: Bool
    if let email = parameters.string("email") {
      guard email.contains("@"), email.count <= 320 else { throw Self.badEmail }
      identifier = email
      isPhone = false
    } else if let phone = parameters.string("phone_number") {
      guard PasswordlessRoutes.isE164(phone) else { throw PasswordlessRoutes.badPhone }
      guard ["text", "voice"].contains(parameters.string("delivery_method") ?? "text") else {
        throw Self.badDeliveryMethod
      }
      identifier = phone
      isPhone = true
    } else {
      throw Self.missingIdentifier
    }
    let allowSignup = parameters.string("allow_signup") == "true"
    let exists = tenant.read({ $0.users.find(identifier, connection: name) }) != nil
    let now = tenant.clock.seconds
    var message: OutboxDraft?
    if exists || allowSignup {
      let sent = sixDigits(Int.random(in: 0..<1_000_000))
      let voice = parameters.string("delivery_method") == "voice"
      message = .code(
        sent, to: identifier, sms: isPhone, body: voice ? "Your verification code is: \(sent) (voice call)" : nil)
    }
    let session = RandomToken.make(bytes: 32)
    let challenge = OTPChallenge(
      clientID: clientID, connection: name, identifier: identifier, isPhone: isPhone, allowSignup: allowSignup,
      code: message?.code)
    tenant.transact {
      $0.startOTPChallenge(challenge, session: session, message: message, now: now, expiresAt: now + Self.lifetime)
    }
    return Responses.json(.object(["auth_session": .string(session)]))
  }
}
