import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// Enrollment (docs/protocol.md §6): `POST /me/v1/authentication-methods` starts one and answers with an
/// `auth_session` and a `Location` naming the method; `POST …/{id}/verify` completes it. Every
/// `auth_session` is bound to the user who started it and is single use, successful or not.
extension MyAccountRoutes {
  /// How long an enrollment may take, seconds (the mock's choice).
  static let enrollmentLifetime: Double = 300

  func enroll(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let (token, user) = try await caller(request, permission: Permission.create)
    guard let body = await RequestParameters.body(of: request, context: context) else {
      throw MyAccountError.malformedBody
    }
    guard let type = body.string("type") else {
      throw MyAccountError.invalidBody("type", "Missing required property: type")
    }
    let now = tenant.clock.seconds
    let authSession = RandomToken.make(bytes: 32)
    var answer: [String: Value] = ["auth_session": .string(authSession)]
    let id: String
    if type == "passkey" {
      try checkIdentity(body, of: user)
      let handle = tenant.read({ $0.passkeys.userHandle(userID: user.userID) }) ?? RandomToken.make(bytes: 32)
      let session = PasskeySession(
        kind: .enrollment(userID: user.userID, userHandle: handle), clientID: token.authorizedParty,
        realm: user.connection, challenge: RandomToken.make(bytes: 32), organization: nil)
      let expiresAt = now + PasskeyMessages.sessionLifetime
      tenant.transact { $0.startPasskeyCeremony(session, authSession: authSession, expiresAt: expiresAt) }
      let name = user.email ?? user.username ?? user.phoneNumber ?? user.userID
      answer["authn_params_public_key"] = PasskeyRoutes.creationOptions(
        challenge: session.challenge, rpID: tenant.host, userHandle: handle, name: name,
        displayName: user.name ?? name)
      // The body has no id: the SDK takes it from the Location header.
      id = MyAccountMethods.newPasskeyID
    } else {
      let (pending, message) = try await start(type, body: body, user: user, now: now)
      id = pending.method.id
      answer["id"] = .string(id)
      switch pending.proof {
      case .totp(let secret):
        let label = FormEncoding.escape("\(tenant.host):\(user.email ?? user.userID)")
        answer["barcode_uri"] = .string(
          "otpauth://totp/\(label)?secret=\(secret)&issuer=\(FormEncoding.escape(tenant.host))")
        answer["manual_input_code"] = .string(secret)
      case .newPassword:
        answer["policy"] = PasswordRules(tenant: tenant).policyDescription
      case .code, .none:
        break
      }
      if type == "push-notification" {
        answer["barcode_uri"] = .string(
          "otpauth://totp/\(FormEncoding.escape(tenant.host))?enrollment_tx_id=\(RandomToken.make(bytes: 12))")
      }
      var stored = pending
      if type == "recovery-code", let code = pending.method.details["recovery_code"] {
        answer["recovery_code"] = code
        stored.method.details["recovery_code"] = nil
      }
      let expiresAt = now + Self.enrollmentLifetime
      tenant.transact {
        $0.startEnrollment(stored, authSession: authSession, message: message, now: now, expiresAt: expiresAt)
      }
    }
    let location = tenant.baseURL + "me/v1/authentication-methods/" + FormEncoding.escape(id)
    return Responses.json(.object(answer), headers: [.location: location])
  }

  /// A non-passkey enrollment for `user`: the method it will create and what verify must prove, and
  /// the message that sends its code (email, phone).
  private func start(
    _ type: String, body: RequestParameters, user: UserRecord, now: Double
  ) async throws -> (PendingEnrollment, OutboxDraft?) {
    let suffix = "dev_" + RandomToken.make(bytes: 9)
    var method = EnrolledMethod(id: "\(type)|\(suffix)", userID: user.userID, type: type, createdAt: now)
    switch type {
    case "password":
      try checkIdentity(body, of: user)
      guard user.password != nil else { throw MyAccountError.passkeyNeedsDatabase }
      method.id = "password|\(MyAccountMethods.identityUserID(user))"
      return (PendingEnrollment(method: method, proof: .newPassword), nil)
    case "totp":
      let secret = Base32.encode(Self.randomBytes(20))
      method.factor = MFAEnrollment(kind: .totp, secret: secret)
      return (PendingEnrollment(method: method, proof: .totp(secret: secret)), nil)
    case "push-notification":
      return (PendingEnrollment(method: method, proof: .none), nil)
    case "recovery-code":
      let code = Base32.encode(Self.randomBytes(15))
      method.details["recovery_code"] = .string(code)
      method.factor = MFAEnrollment(kind: .recoveryCode, secret: code)
      return (PendingEnrollment(method: method, proof: .none), nil)
    case "email":
      guard let email = body.string("email"), DBConnectionRoutes.isEmail(email) else {
        throw MyAccountError.invalidBody("email", "Must be an email address")
      }
      method.details["email"] = .string(email)
      method.factor = MFAEnrollment(kind: .email, secret: email)
      let code = Self.sixDigits()
      let message = OutboxDraft(
        channel: .email, to: email, subject: "Verify your email", body: "Your verification code is \(code)", code: code)
      return (PendingEnrollment(method: method, proof: .code(code)), message)
    case "phone":
      guard let phone = body.string("phone_number"), PasswordlessRoutes.isE164(phone) else {
        throw MyAccountError.invalidBody("phone_number", "Must be in E.164 format")
      }
      let channel = body.string("preferred_authentication_method") ?? "sms"
      guard ["sms", "voice"].contains(channel) else {
        throw MyAccountError.invalidBody("preferred_authentication_method", "Must be sms or voice")
      }
      method.details["phone_number"] = .string(phone)
      method.details["preferred_authentication_method"] = .string(channel)
      // The MFA API knows phones as SMS authenticators (voice is delivered the same way here).
      method.factor = MFAEnrollment(kind: .sms, secret: phone)
      let code = Self.sixDigits()
      let message = OutboxDraft(
        channel: .sms, to: phone, subject: "Verification code", body: "Your verification code is \(code)", code: code)
      return (PendingEnrollment(method: method, proof: .code(code)), message)
    default:
      throw MyAccountError.unsupportedType(type)
    }
  }

  /// `identity_user_id` and `connection`, when given, must name the caller's own identity, and
  /// it must be on a database connection.
  private func checkIdentity(_ body: RequestParameters, of user: UserRecord) throws(MyAccountError) {
    if let identity = body.string("identity_user_id"), identity != MyAccountMethods.identityUserID(user) {
      throw .unknownIdentity
    }
    if let connection = body.string("connection"), connection != user.connection { throw .unknownIdentity }
    guard tenant.fixture.connection(named: user.connection)?.strategy == .database else {
      throw .passkeyNeedsDatabase
    }
  }

  func verify(_ request: Request, context: BasicRequestContext, id: String) async throws -> Response {
    let (_, user) = try await caller(request, permission: Permission.create)
    guard let body = await RequestParameters.body(of: request, context: context) else {
      throw MyAccountError.malformedBody
    }
    guard let authSession = body.string("auth_session") else {
      throw MyAccountError.invalidBody("auth_session", "Missing required property: auth_session")
    }
    if id == MyAccountMethods.newPasskeyID {
      return try await verifyPasskey(request, body: body, authSession: authSession, user: user)
    }
    let now = tenant.clock.seconds
    // Taken, not read: one attempt per auth_session.
    guard let pending = tenant.transact({ $0.takeEnrollment(authSession, now: now) }),
      pending.method.userID == user.userID, pending.method.id == id
    else { throw MyAccountError.invalidSession }
    switch pending.proof {
    case .code(let expected):
      guard let otp = body.string("otp_code"), RandomToken.constantTimeEquals(otp, expected) else {
        throw MyAccountError.invalidOTP
      }
    case .totp(let secret):
      guard let otp = body.string("otp_code"), let totp = TOTP(base32Secret: secret),
        totp.verify(otp, at: tenant.clock.now())
      else { throw MyAccountError.invalidOTP }
    case .newPassword:
      guard let password = body.string("new_password") else {
        throw MyAccountError.invalidBody("new_password", "Missing required property: new_password")
      }
      if let failure = await PasswordRules(tenant: tenant).failure(for: password, userID: user.userID) {
        throw failure.myAccountError
      }
      _ = tenant.transact { $0.changePassword(userID: user.userID, to: password, now: now) }
      return Responses.json(await MyAccountMethods(tenant: tenant).method(id: id, of: user) ?? .object([:]))
    case .none:
      break
    }
    // The method and the MFA factor it gives the user, in one step.
    tenant.transact { $0.confirmEnrollment(pending.method) }
    return Responses.json(MyAccountMethods.object(pending.method))
  }

  /// Checks the attestation against the enrollment's challenge (a real WebAuthn registration
  /// check: client data type, challenge, origin, rp id hash, user presence, `none` format) and
  /// stores the passkey.
  private func verifyPasskey(
    _ request: Request, body: RequestParameters, authSession: String, user: UserRecord
  ) async throws -> Response {
    guard let raw = body.values["authn_response"] else {
      throw MyAccountError.invalidBody("authn_response", "Missing required property: authn_response")
    }
    let response = raw.stringValue.flatMap { try? Value(jsonText: $0) } ?? raw
    let now = tenant.clock.seconds
    guard let session = tenant.transact({ $0.takePasskeyCeremony(authSession, now: now) }),
      case .enrollment(let userID, let handle) = session.kind, userID == user.userID
    else { throw MyAccountError.invalidSession }
    guard let fields = response.member("response")?.objectValue,
      let clientData = TokenRoutes.bytes(fields["clientDataJSON"]),
      let attestation = TokenRoutes.bytes(fields["attestationObject"])
    else { throw MyAccountError.malformedResponse }
    let credential: RegisteredCredential
    do {
      credential = try TokenRoutes.passkeyVerifier(tenant: tenant).verifyRegistration(
        clientDataJSON: clientData, attestationObject: attestation, expectedChallenge: session.challenge)
    } catch {
      throw MyAccountError.attestationRejected(error.description)
    }
    let credentialID = Base64URL.encode(credential.credentialID)
    // The id the client reports must be the one it attested.
    if let reported = response.member("id")?.stringValue, reported != credentialID {
      throw MyAccountError.malformedResponse
    }
    let stored = PasskeyCredential(
      id: credentialID, userID: user.userID, userHandle: handle, publicKey: credential.publicKey,
      signCount: credential.signCount, aaguid: credential.aaguid, backedUp: credential.backedUp, createdAt: now,
      userAgent: request.headers[.userAgent], backupEligible: credential.backupEligible)
    guard tenant.transact({ $0.addPasskey(stored) }) else { throw MyAccountError.passkeyExists }
    return Responses.json(MyAccountMethods(tenant: tenant).passkey(stored, user: user))
  }

  static func randomBytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255) }
  }

  static func sixDigits() -> String {
    String(format: "%06d", Int.random(in: 0...999_999))
  }
}

extension PasswordRules.Failure {
  /// The failure as a My Account error (`type` names the rule; the mock's choice of codes).
  var myAccountError: MyAccountError {
    switch self {
    case .strength(let policy, _):
      return MyAccountError(
        status: .badRequest, type: "password_strength_error", title: "Bad Request",
        detail: "Password is too weak:\n" + policy.text)
    case .dictionary:
      return MyAccountError(
        status: .badRequest, type: "password_dictionary_error", title: "Bad Request",
        detail: PasswordRuleMessages.dictionary)
    case .personalInfo:
      return MyAccountError(
        status: .badRequest, type: "password_no_user_info_error", title: "Bad Request",
        detail: PasswordRuleMessages.personalInfo)
    case .history:
      return MyAccountError(
        status: .badRequest, type: "password_history_error", title: "Bad Request", detail: PasswordRuleMessages.history)
    }
  }
}
