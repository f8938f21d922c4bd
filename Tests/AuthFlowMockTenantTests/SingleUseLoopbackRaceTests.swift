import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

@testable import AuthFlowMockTenant

/// Attackers racing single-use credentials and attempt limits over real TCP: the mock on 127.0.0.1
/// handles the requests on its event loops in parallel, and each credential is checked and used up
/// in one step of ``MockState`` — an MFA token logs in once, however many second factors arrive
/// with it at once, and concurrent wrong passwords never get more tries than the brute-force limit.
/// The interleaving that would let two requests through is a matter of microseconds, so each race
/// runs several times.
@Suite struct SingleUseLoopbackRaceTests {
  static let races = 6
  static let racers = 12

  @Test func anMFATokenLogsInOnceHoweverManySecondFactorsArriveAtOnce() async throws {
    try await MockHarness.withServer { handle in
      for _ in 0..<Self.races { try await Self.raceMFAToken(handle) }
    }
  }

  /// One MFA token, `racers` OOB challenges started with it (each with its own binding code, as
  /// `/mfa/challenge` makes them), and every challenge answered at once: each answer is a right
  /// second factor, yet the token is used up by the first, so one login wins and the others get
  /// `Malformed mfa_token`.
  static func raceMFAToken(_ handle: MockTenantServer.Handle) async throws {
    let tenant = handle.tenant
    let now = tenant.clock.seconds
    let token = RandomToken.make(bytes: 32)
    let grant = Grant(
      clientID: "native-client-id", userID: "auth0|bob0002", scope: ["openid"], audience: nil, nonce: nil,
      organization: nil, authTime: now, includeAuthTime: false)
    tenant.transact { $0.issueMFAToken(token, for: grant, expiresAt: now + MFATokens.lifetime) }
    var bodies: [String] = []
    for index in 0..<racers {
      let code = RandomToken.make(bytes: 24)
      let binding = String(format: "%06d", index)
      let challenge = MFAStore.OOBChallenge(
        mfaToken: token, userID: "auth0|bob0002", channel: "sms", bindingCode: binding, status: .pending,
        expiresAt: now + MFARoutes.oobLifetime)
      tenant.transact { $0.startOOBChallenge(challenge, code: code, message: nil, now: now) }
      bodies.append(
        LoopbackRace.form([
          ("grant_type", MFAAPITests.mfaOOB), ("client_id", "native-client-id"), ("mfa_token", token),
          ("oob_code", code), ("binding_code", binding),
        ]))
    }
    let answers = try await LoopbackRace.post(bodies, url: handle.baseURL + "oauth/token")
    let statuses = answers.map(\.status)
    #expect(answers.filter { $0.status == 200 }.count == 1, "\(statuses)")
    #expect(
      answers.filter { $0.status == 403 && $0.text.contains(OAuthError.malformedMFAToken.description) }.count
        == racers - 1, "\(statuses)")
  }

  @Test func concurrentWrongPasswordsNeverOutnumberTheBruteForceLimit() async throws {
    try await MockHarness.withServer { handle in
      for round in 0..<Self.races { try await Self.racePasswords(handle, identifier: "racer\(round)@example.com") }
    }
  }

  /// Three times the limit of wrong passwords for one identifier at once: exactly `limit` are
  /// compared (and answered "Wrong email or password."), every other is refused as blocked.
  static func racePasswords(_ handle: MockTenantServer.Handle, identifier: String) async throws {
    let limit = handle.tenant.fixture.settings.bruteForceLimit
    let body = LoopbackRace.form([
      ("grant_type", "http://auth0.com/oauth/grant-type/password-realm"), ("client_id", "native-client-id"),
      ("username", identifier), ("password", "wrong-password"), ("realm", "Username-Password-Authentication"),
    ])
    let answers = try await LoopbackRace.post(
      Array(repeating: body, count: 3 * limit), url: handle.baseURL + "oauth/token")
    let statuses = answers.map(\.status)
    let wrong = answers.filter { $0.status == 403 && $0.text.contains(OAuthError.wrongCredentials.description) }
    let blocked = answers.filter { $0.status == 429 && $0.text.contains("too_many_attempts") }
    #expect(wrong.count == limit, "\(statuses)")
    #expect(blocked.count == 2 * limit, "\(statuses)")
  }
}
