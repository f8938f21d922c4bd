import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// The mock's state has one owner (``MockState``) and the protocol's operations on it are atomic:
/// attackers racing one code, one refresh token or one OTP never win twice and never get more
/// guesses than the limit. Each test fires its requests at once (a task group over the in-process
/// router: the handlers interleave at every `await`) and asserts on what the answers were, never
/// on timing.
@Suite struct MockStateTransactionTests {
  /// How many copies of one request race.
  static let racers = 16

  /// `count` copies of `request` at once; their answers.
  static func race(
    _ count: Int = racers, _ request: @escaping @Sendable () async throws -> TestResponse
  ) async throws -> [TestResponse] {
    try await withThrowingTaskGroup(of: TestResponse.self) { group in
      for _ in 0..<count { group.addTask { try await request() } }
      var answers: [TestResponse] = []
      for try await answer in group { answers.append(answer) }
      return answers
    }
  }

  static func errorDescriptions(_ answers: [TestResponse]) -> [String] {
    answers.filter { $0.status != .ok }.map { $0.json["error_description"]?.stringValue ?? $0.text }
  }

  @Test func aCodeRedeemedByManyAtOnceIssuesOnceAndRevokesTheFamilyItStarted() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await SecurityProbe.code(&browser)
      let verifier = AuthorizeParameters().verifier
      let answers = try await Self.race { try await client.exchange(code: code, verifier: verifier) }
      let winners = answers.filter { $0.status == .ok }
      #expect(winners.count == 1, "\(answers.map(\.status))")
      #expect(Self.errorDescriptions(answers) == Array(repeating: "Invalid authorization code", count: Self.racers - 1))
      // The reuse revoked the refresh-token family of the one exchange that won, even when it came
      // while the winner was still signing its tokens.
      let refreshToken = try #require(winners.first?.json["refresh_token"]?.stringValue)
      let refreshed = try await TokenProbe.refresh(client, refreshToken)
      #expect(refreshed.status == .forbidden)
      #expect(refreshed.json["error_description"] == .string("Unknown or invalid refresh token."))
    }
  }

  @Test func aRefreshTokenRotatedByManyAtOnceWinsOnceAndTheReuseRevokesTheFamily() async throws {
    // Rotation on, no reuse leeway: the fixture's defaults.
    let tenant = try MockHarness.tenant()
    #expect(tenant.fixture.settings.refreshTokenRotation && tenant.fixture.settings.refreshTokenReuseLeeway == 0)
    try await MockHarness.test(tenant) { client in
      let token = try #require(try await SecurityProbe.tokens(client)["refresh_token"]?.stringValue)
      let answers = try await Self.race { try await TokenProbe.refresh(client, token) }
      let winners = answers.filter { $0.status == .ok }
      #expect(winners.count == 1, "\(answers.map(\.status))")
      #expect(
        Self.errorDescriptions(answers)
          == Array(repeating: "Unknown or invalid refresh token.", count: Self.racers - 1))
      let successor = try #require(winners.first?.json["refresh_token"]?.stringValue)
      #expect(successor != token)
      #expect(try await TokenProbe.refresh(client, successor).status == .forbidden)
    }
  }

  static func passwordlessLogin(_ client: any TestClientProtocol, otp: String) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("http://auth0.com/oauth/grant-type/passwordless/otp"),
        "client_id": .string("native-client-id"), "username": .string("pat@example.com"), "otp": .string(otp),
        "realm": .string("email"),
      ])
  }

  @Test func passwordlessGuessesAtOnceNeverPassTheAttemptLimit() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let start = try await client.postJSON(
        "/passwordless/start",
        [
          "client_id": .string("native-client-id"), "connection": .string("email"),
          "email": .string("pat@example.com"), "send": .string("code"),
        ])
      #expect(start.status == .ok, "\(start.text)")
      let code = try await UniversalLoginPasswordlessTests.sentCode(tenant, to: "pat@example.com")
      let wrong = code == "000000" ? "111111" : "000000"
      let answers = try await Self.race { try await Self.passwordlessLogin(client, otp: wrong) }
      let descriptions = Self.errorDescriptions(answers)
      #expect(answers.allSatisfy { $0.status == .forbidden })
      // Two wrong guesses are answered as wrong; the third uses the code up; every other guess
      // finds it gone — however many arrive at once.
      let wrongCount = descriptions.filter { $0 == "Wrong email or verification code." }.count
      #expect(wrongCount == PasswordlessCodes.maxAttempts - 1, "\(descriptions)")
      #expect(
        descriptions.filter { $0 == OAuthError.tooManyOTPAttempts.description }.count == Self.racers - wrongCount)
      // The right code comes too late: the code is used up.
      let right = try await Self.passwordlessLogin(client, otp: code)
      #expect(right.status == .forbidden)
      #expect(right.json["error_description"] == .string(OAuthError.tooManyOTPAttempts.description))
    }
  }

  @Test func otpChallengeGuessesAtOnceNeverPassTheAttemptLimit() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let session = try OTPChallengeTests.session(
        try await OTPChallengeTests.challenge(client, ["email": .string("alice@example.com")]))
      let code = try #require(tenant.read { $0.outbox.list(to: "alice@example.com") }.last?.code)
      let answers = try await Self.race {
        try await OTPChallengeTests.token(client, session: session, otp: OTPChallengeTests.wrong(than: code))
      }
      let descriptions = Self.errorDescriptions(answers)
      // Two wrong codes are answered as wrong, the third ends the session; the rest find it gone.
      #expect(
        descriptions.filter { $0 == OAuthError.wrongEmailCode.description }.count == PasswordlessCodes.maxAttempts - 1,
        "\(descriptions)")
      #expect(descriptions.filter { $0 == OAuthError.tooManyOTPAttempts.description }.count == 1)
      #expect(
        descriptions.filter { $0 == OAuthError.invalidAuthSession.description }.count
          == Self.racers - PasswordlessCodes.maxAttempts)
      #expect(try await OTPChallengeTests.token(client, session: session, otp: code).status == .forbidden)
    }
  }

  @Test func mfaGuessesAtOnceNeverOutnumberTheUsersBucket() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await MFAAPITests.bobMFAToken(client)
      let wrong = try MFAProbe.wrongCode(tenant)
      let guesses = 3 * Int(MFAThrottle.bucketSize)
      let answers = try await Self.race(guesses) { try await MFAProbe.otp(client, token: token, code: wrong) }
      let counted = answers.filter { $0.json["error_description"] == .string("Invalid otp_code.") }.count
      let refused = answers.filter { $0.status == .tooManyRequests }.count
      // Every wrong guess draws from the bucket before it is checked: exactly `bucketSize` are
      // checked, the others are refused.
      #expect(counted == Int(MFAThrottle.bucketSize), "\(answers.map(\.status))")
      #expect(refused == guesses - counted)
      // The right code is refused too: the bucket is empty.
      let right = try await MFAProbe.otp(client, token: token, code: try UniversalLoginMFATests.code(tenant))
      #expect(right.status == .tooManyRequests)
    }
  }

  @Test func bindingCodeGuessesAtOnceNeverPassTheLimitAndTheRightCodeLogsInOnce() async throws {
    let tenant = try MFAAPITests.enrolTenant()
    try await MockHarness.test(tenant) { client in
      let token = try await MFAAPITests.bobMFAToken(
        client, username: "carol@example.com", password: "Carol-Passw0rd!")
      let associate = try await client.postJSON(
        "/mfa/associate",
        [
          "authenticator_types": .array([.string("oob")]), "oob_channels": .array([.string("sms")]),
          "phone_number": .string("+15555550199"),
        ], headers: [.authorization: "Bearer \(token)"])
      let oobCode = try #require(associate.json["oob_code"]?.stringValue, "\(associate.text)")
      let binding = try #require(tenant.read { $0.outbox.list(to: "+15555550199") }.last?.code)
      @Sendable func answer(_ code: String) async throws -> TestResponse {
        try await client.postJSON(
          "/oauth/token",
          MFAAPITests.grant(
            MFAAPITests.mfaOOB,
            ["mfa_token": .string(token), "oob_code": .string(oobCode), "binding_code": .string(code)]))
      }
      let answers = try await Self.race { try await answer(binding == "000000" ? "111111" : "000000") }
      let descriptions = Self.errorDescriptions(answers)
      // Five wrong codes are counted; the fifth uses the challenge up, and every later guess finds
      // it gone — however many arrive at once.
      #expect(descriptions.filter { $0 == "Invalid binding_code." }.count == MFAStore.maxBindingCodeFailures)
      #expect(descriptions.count == Self.racers)
      #expect(try await answer(binding).status == .forbidden)
    }
  }

  @Test func userCodeGuessesAtOnceNeverPassTheActivationsLimit() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let page = try await browser.get("/activate")
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      let answers = try await Self.race {
        try await client.postForm("/activate", [("state", state), ("_csrf", csrf), ("user_code", "BBBB-BBBB")])
      }
      // Four wrong codes are answered as wrong; the fifth drops the activation, and every later
      // guess finds it gone — however many arrive at once.
      let wrong = answers.filter { $0.status == .badRequest && $0.text.contains(DeviceFlowMessages.invalidUserCode) }
      let gone = answers.filter { $0.status == .badRequest && $0.text.contains("unknown or has expired") }
      #expect(wrong.count == ActivateRoutes.maxFailures - 1, "\(answers.map(\.status))")
      #expect(answers.filter { $0.status == .tooManyRequests }.count == 1)
      #expect(gone.count == Self.racers - ActivateRoutes.maxFailures)
    }
  }

  @Test func aRecoveryCodeUsedAtOnceLogsInOnce() async throws {
    let tenant = try MockHarness.tenant()
    let recovery = try #require(
      tenant.read { $0.users.user(id: "auth0|bob0002") }?.mfa.first { $0.kind == .recoveryCode }?.secret)
    try await MockHarness.test(tenant) { client in
      let answers = try await Self.race {
        let token = try await MFAAPITests.bobMFAToken(client)
        return try await client.postJSON(
          "/oauth/token",
          MFAAPITests.grant(
            MFAAPITests.mfaRecovery, ["mfa_token": .string(token), "recovery_code": .string(recovery)]))
      }
      #expect(answers.filter { $0.status == .ok }.count == 1, "\(answers.map(\.status))")
    }
  }

  @Test func anMFACodeReplayedAtOnceLogsInOnce() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let tokens = try await Self.race(Self.racers) {
        let token = try await MFAAPITests.bobMFAToken(client)
        return try await MFAProbe.otp(client, token: token, code: try UniversalLoginMFATests.code(tenant))
      }
      #expect(tokens.filter { $0.status == .ok }.count == 1, "\(tokens.map(\.status))")
      #expect(Self.errorDescriptions(tokens).allSatisfy { $0 == "Invalid otp_code." })
    }
  }
}

/// Reset by construction: `POST /__mock/reset` replaces the whole state with a fresh one, so every
/// kind of state the routes made is gone, whichever store holds it.
@Suite struct MockStateResetTests {
  @Test func resetClearsEveryKindOfStateTheRoutesMade() async throws {
    let tenant = try MockHarness.tenant { $0.settings.dynamicClientRegistration = true }
    let fresh = try MockHarness.tenant { $0.settings.dynamicClientRegistration = true }.read { $0.census }
    try await MockHarness.test(tenant) { client in
      // A login with its code exchanged (transaction, code, redeemed code, SSO session, refresh token).
      var browser = Browser(client)
      let code = try await SecurityProbe.code(&browser)
      #expect(try await client.exchange(code: code, verifier: AuthorizeParameters().verifier).status == .ok)
      // A signup, a passwordless code and a wrong guess, an MFA token and a wrong MFA code.
      #expect(try await client.postJSON("/dbconnections/signup", DBConnectionTests.signupBody()).status == .ok)
      let start = try await client.postJSON(
        "/passwordless/start",
        [
          "client_id": .string("native-client-id"), "connection": .string("email"),
          "email": .string("pat@example.com"), "send": .string("code"),
        ])
      #expect(start.status == .ok)
      _ = try await MockStateTransactionTests.passwordlessLogin(client, otp: "not-a-code")
      let mfaToken = try await MFAAPITests.bobMFAToken(client)
      _ = try await MFAProbe.otp(client, token: mfaToken, code: try MFAProbe.wrongCode(tenant))
      // A device code, a CIBA request, a pushed request, a registered client, a fault, the clock.
      let device = try await client.postJSON("/oauth/device/code", ["client_id": .string("native-client-id")])
      #expect(device.status == .ok)
      _ = try await BackchannelTests.requestID(client)
      #expect(try await PushedAuthorizationTests.push(client).status == .created)
      let registered = try await client.postJSON(
        "/oidc/register",
        ["client_name": .string("Reset"), "redirect_uris": .array([.string(RegistrationTests.callback)])])
      #expect(registered.status == .created, "\(registered.text)")
      let fault = try await client.postJSON(
        "/__mock/faults", ["endpoint": .string("/nowhere"), "kind": .string("status")])
      #expect(fault.status == .created)
      tenant.clock.advance(by: 30)
      // A rotated signing key (the keys are part of the state: reset brings the first one back).
      #expect(try await client.execute(uri: "/__mock/rotate-keys", method: .post).status == .ok)
      #expect(tenant.signingKey.kid != MockHarness.key.kid)

      let populated = tenant.read { $0.census }
      for store in [
        "users", "sessions", "redeemed_codes", "refresh_token_families", "passwordless_codes",
        "passwordless_attempts", "outbox_messages", "mfa_tokens", "mfa_attempts", "device_codes",
        "backchannel_requests", "pushed_requests", "registered_clients", "faults", "published_signing_keys",
      ] {
        #expect(populated[store] != fresh[store], "\(store) was not populated: \(populated[store] ?? -1)")
      }

      let reset = try await client.execute(uri: "/__mock/reset", method: .post)
      #expect(reset.status == .noContent)
    }
    let after = tenant.read { $0.census }
    #expect(after == fresh, "left after reset: \(after.filter { fresh[$0.key] != $0.value })")
    #expect(tenant.clock.offsetSeconds == 0)
    #expect(tenant.signingKey.kid == MockHarness.key.kid)
  }
}
