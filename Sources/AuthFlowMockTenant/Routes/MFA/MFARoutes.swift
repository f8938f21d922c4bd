import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// The MFA API (docs/protocol.md §3.6): `GET /mfa/authenticators`, `POST /mfa/associate` (both with
/// `Authorization: Bearer <mfa_token>`) and `POST /mfa/challenge`. The codes they start are
/// completed by the `mfa-otp` and `mfa-oob` grants of `/oauth/token`.
struct MFARoutes {
  let tenant: MockTenant

  /// How often a push may be polled, seconds.
  static let pollInterval = 5.0
  /// OOB codes live as long as the MFA token.
  static let oobLifetime = 300.0

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "mfaListAuthenticators": { request, _ in
        await answer {
          let (_, _, user) = try await MFATokens(tenant: tenant).resolve(bearer(request))
          return Responses.json(.array(MFAMethods.authenticators(of: user).map(\.json)))
        }
      },
      "mfaAssociate": { request, context in
        await answer { try await associate(request, context: context) }
      },
      "mfaChallenge": { request, context in
        await answer { try await challenge(request, context: context) }
      },
    ]
  }

  private func answer(_ body: () async throws -> Response) async -> Response {
    await OAuthError.respond(otherwise: { _ in .malformedBody }, body)
  }

  private func bearer(_ request: Request) throws(OAuthError) -> String {
    guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
      case let token = String(header.dropFirst(7)).trimmingWhitespace(), !token.isEmpty
    else { throw OAuthError.missingBearer }
    return token
  }

  private func associate(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let token = try bearer(request)
    let (_, _, user) = try await MFATokens(tenant: tenant).resolve(token)
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    if MFAMethods.authenticators(of: user).contains(where: { $0.type != "recovery-code" }) {
      throw OAuthError.alreadyEnrolled
    }
    let types = Self.list(parameters.values["authenticator_types"])
    var body: [String: Value]
    let now = tenant.clock.seconds
    if types == ["otp"] {
      let secret = Base32.encode((0..<20).map { _ in UInt8.random(in: 0...255) })
      let association = MFAEnrollment(kind: .totp, secret: secret)
      let expiresAt = now + MFATokens.lifetime
      tenant.transact { $0.startOTPAssociation(association, mfaToken: token, expiresAt: expiresAt) }
      let label = FormEncoding.escape(user.email ?? user.userID)
      let issuer = FormEncoding.escape(tenant.host)
      body = [
        "authenticator_type": .string("otp"), "secret": .string(secret),
        "barcode_uri": .string("otpauth://totp/\(issuer):\(label)?secret=\(secret)&issuer=\(issuer)"),
      ]
    } else if types == ["oob"] {
      let channels = Self.list(parameters.values["oob_channels"])
      guard channels.count == 1, let channel = channels.first else {
        throw OAuthError.invalidAssociation("oob_channels must be one of sms, email, auth0")
      }
      let enrolment: MFAEnrollment?
      var bindingCode: String?
      switch channel {
      case "sms":
        guard let phone = parameters.string("phone_number"), PasswordlessRoutes.isE164(phone) else {
          throw OAuthError.invalidAssociation("phone_number must be in E.164 format")
        }
        enrolment = MFAEnrollment(kind: .sms, secret: phone)
        bindingCode = sixDigits(Int.random(in: 0..<1_000_000))
      case "email":
        guard let email = parameters.string("email"), DBConnectionRoutes.isEmail(email) else {
          throw OAuthError.invalidAssociation("email is required for the email channel")
        }
        enrolment = MFAEnrollment(kind: .email, secret: email)
        bindingCode = sixDigits(Int.random(in: 0..<1_000_000))
      case "auth0":
        enrolment = nil
      default:
        throw OAuthError.invalidAssociation("oob_channels must be one of sms, email, auth0")
      }
      let oobCode = RandomToken.make(bytes: 24)
      let challenge = MFAStore.OOBChallenge(
        mfaToken: token, userID: user.userID, channel: channel, bindingCode: bindingCode, status: .pending,
        expiresAt: now + Self.oobLifetime, enrolment: enrolment)
      let message = enrolment.flatMap { enrolment in bindingCode.flatMap { MFAMethods.message($0, to: enrolment) } }
      tenant.transact { $0.startOOBChallenge(challenge, code: oobCode, message: message, now: now) }
      body = [
        "authenticator_type": .string("oob"), "oob_channel": .string(channel), "oob_code": .string(oobCode),
        "binding_method": .string(channel == "auth0" ? "" : "prompt"),
      ]
      if channel == "auth0" {
        body["binding_method"] = nil
        body["barcode_uri"] = .string("otpauth://totp/\(FormEncoding.escape(tenant.host))?enrollment_tx_id=\(oobCode)")
      }
    } else {
      throw OAuthError.invalidAssociation("authenticator_types must be [\"otp\"] or [\"oob\"]")
    }
    let code = MFAMethods.newRecoveryCode()
    if tenant.transact({ $0.addFirstRecoveryCode(code, userID: user.userID) }) {
      body["recovery_codes"] = .array([.string(code)])
    }
    return Responses.json(.object(body))
  }

  private func challenge(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    guard let clientID = parameters.string("client_id") else { throw OAuthError.missingClientID }
    guard let client = tenant.fixture.client(id: clientID) else { throw OAuthError.unauthorizedClient }
    let token = parameters.string("mfa_token")
    let (mfaToken, grant, user) = try await MFATokens(tenant: tenant).resolve(token)
    guard grant.clientID == client.clientID else { throw OAuthError.malformedMFAToken }
    let enrolled = MFAMethods.authenticators(of: user).filter { $0.type != "recovery-code" }
    guard !enrolled.isEmpty else { throw OAuthError.associationRequired }
    let requested = (parameters.string("challenge_type") ?? "otp oob").split(separator: " ").map(String.init)
    guard requested.allSatisfy({ $0 == "otp" || $0 == "oob" }) else {
      throw OAuthError.unsupportedChallengeType(requested.joined(separator: " "))
    }
    let chosen: MFAMethods.Authenticator
    if let id = parameters.string("authenticator_id") {
      guard let found = enrolled.first(where: { $0.id == id }) else { throw OAuthError.unknownAuthenticator }
      guard requested.contains(found.type) else {
        throw OAuthError.unsupportedChallengeType(requested.joined(separator: " "))
      }
      chosen = found
    } else {
      guard let found = enrolled.first(where: { requested.contains($0.type) }) else {
        throw OAuthError.unsupportedChallengeType(requested.joined(separator: " "))
      }
      chosen = found
    }
    guard chosen.type == "oob", let enrolment = chosen.enrolment else {
      return Responses.json(.object(["challenge_type": .string("otp")]))
    }
    let oobCode = RandomToken.make(bytes: 24)
    let bindingCode = sixDigits(Int.random(in: 0..<1_000_000))
    let now = tenant.clock.seconds
    let challenge = MFAStore.OOBChallenge(
      mfaToken: mfaToken, userID: user.userID, channel: chosen.channel ?? "sms", bindingCode: bindingCode,
      status: .pending, expiresAt: now + Self.oobLifetime)
    let message = MFAMethods.message(bindingCode, to: enrolment)
    tenant.transact { $0.startOOBChallenge(challenge, code: oobCode, message: message, now: now) }
    return Responses.json(
      .object(["challenge_type": .string("oob"), "oob_code": .string(oobCode), "binding_method": .string("prompt")]))
  }

  /// A string list from a JSON array, or a space-separated form value.
  static func list(_ value: Value?) -> [String] {
    switch value {
    case .array(let items)?: return items.compactMap(\.stringValue)
    case .string(let text)?: return text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    default: return []
    }
  }
}

/// Resolves MFA tokens: unknown → `Malformed mfa_token`, past the 10-minute lifetime →
/// `expired_token` / `mfa_token is expired`.
struct MFATokens {
  let tenant: MockTenant

  static let lifetime = 600.0

  /// The live token's grant and user (read, not used up).
  func resolve(_ token: String?) async throws(OAuthError) -> (String, Grant, UserRecord) {
    guard let token else { throw OAuthError.missingParameter("mfa_token") }
    let now = tenant.clock.seconds
    switch tenant.read({ $0.mfaTokens.lookup(token, now: now) }) {
    case .missing: throw OAuthError.malformedMFAToken
    case .expired: throw OAuthError.expiredMFAToken
    case .live(let grant):
      guard let userID = grant.userID, let user = tenant.read({ $0.users.user(id: userID) }) else {
        throw OAuthError.malformedMFAToken
      }
      return (token, grant, user)
    }
  }

  /// An MFA grant's live token (read, not used up) — the client's own — its user, and the
  /// `parameter` the grant requires.
  func resolve(
    _ parameters: RequestParameters, requiring parameter: String, client: ClientConfig
  ) async throws(OAuthError) -> (token: String, user: UserRecord, value: String) {
    let (token, grant, user) = try await resolve(parameters.string("mfa_token"))
    guard let value = parameters.string(parameter) else { throw OAuthError.missingParameter(parameter) }
    guard grant.clientID == client.clientID else { throw OAuthError.malformedMFAToken }
    return (token, user, value)
  }

  /// Uses up the token of a second factor that verified, with the factor the login confirms
  /// (``MockState/redeemMFAToken(_:now:enrolling:)``): its grant, or the error when a concurrent
  /// grant used it first (`Malformed mfa_token`) or it expired meanwhile.
  func redeem(_ token: String, enrolling: MFAEnrollment?) throws(OAuthError) -> Grant {
    let now = tenant.clock.seconds
    switch tenant.transact({ $0.redeemMFAToken(token, now: now, enrolling: enrolling) }) {
    case .redeemed(let grant): return grant
    case .expired: throw OAuthError.expiredMFAToken
    case .unknown: throw OAuthError.malformedMFAToken
    }
  }
}

/// A user's authenticators as the MFA API shows them, and code delivery.
enum MFAMethods {
  struct Authenticator {
    var id: String
    /// `otp`, `oob` or `recovery-code`.
    var type: String
    var channel: String?
    var name: String?
    var enrolment: MFAEnrollment?

    var json: Value {
      var members: [String: Value] = [
        "id": .string(id), "authenticator_type": .string(type), "type": .string(type), "active": .bool(true),
      ]
      if let channel { members["oob_channel"] = .string(channel) }
      if let name { members["name"] = .string(name) }
      return .object(members)
    }
  }

  static func authenticators(of user: UserRecord) -> [Authenticator] {
    user.mfa.enumerated().map { index, factor in
      switch factor.kind {
      case .totp: return Authenticator(id: "totp|dev_\(index)", type: "otp", enrolment: factor)
      case .sms:
        return Authenticator(
          id: "sms|dev_\(index)", type: "oob", channel: "sms", name: masked(factor.secret), enrolment: factor)
      case .email:
        return Authenticator(
          id: "email|dev_\(index)", type: "oob", channel: "email", name: masked(factor.secret), enrolment: factor)
      case .recoveryCode: return Authenticator(id: "recovery-code|dev_\(index)", type: "recovery-code")
      }
    }
  }

  /// `XXXXXXXX…2`: the last two characters only.
  static func masked(_ text: String) -> String { "XXXXXXXX" + String(text.suffix(2)) }

  /// The message that sends a binding code by SMS or email; nil for factors without a channel.
  static func message(_ code: String, to enrolment: MFAEnrollment) -> OutboxDraft? {
    switch enrolment.kind {
    case .sms: return .code(code, to: enrolment.secret, sms: true)
    case .email: return .code(code, to: enrolment.secret, sms: false)
    case .totp, .recoveryCode: return nil
    }
  }

  /// A 24-character recovery code (A-Z, 2-9).
  static func newRecoveryCode() -> String {
    let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    return String((0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
  }
}
