import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

@testable import AuthFlowMockTenant

/// Attackers racing single-use credentials and attempt limits over real TCP: the mock on 127.0.0.1
/// handles the requests on its event loops in parallel, and each credential is checked and used up
/// in one step of ``MockState`` — an MFA token logs in once, however many second factors arrive
/// with it at once, and concurrent wrong passwords never get more tries than the brute-force limit.
///
/// A race needs the requests' checks to overlap, and the mock answers in microseconds; so each test
/// widens the window between the check and the write with work an attacker controls — a user with
/// many authenticators (each TOTP code is checked against them in turn), a tenant with many users
/// (a login searches them) — the way race attacks slow a target down. With the check and the write
/// in separate steps, several requests then pass the check before the first write; in one step,
/// never.
@Suite struct SingleUseLoopbackRaceTests {
  static let races = 6
  /// Fewer than the MFA attempt bucket (10): every racer's code is checked.
  static let racers = 8
  /// Authenticators enrolled before the racers' own: the codes are checked against them first.
  static let decoyAuthenticators = 300

  /// Bob with `decoyAuthenticators + racers` TOTP authenticators, the racers' last.
  static func manyAuthenticators() -> (TenantFixture, [TOTP]) {
    var fixture = MockHarness.fixture
    var totps: [TOTP] = []
    var factors: [MFAEnrollment] = []
    for _ in 0..<(decoyAuthenticators + racers) {
      let secret = Base32.encode((0..<20).map { _ in UInt8.random(in: 0...255) })
      factors.append(MFAEnrollment(kind: .totp, secret: secret))
      if let totp = TOTP(base32Secret: secret) { totps.append(totp) }
    }
    fixture.users["bob"]?.mfa = factors
    return (fixture, Array(totps.suffix(racers)))
  }

  @Test func anMFATokenLogsInOnceHoweverManySecondFactorsArriveAtOnce() async throws {
    let (fixture, totps) = Self.manyAuthenticators()
    try await MockHarness.withServer(fixture: fixture) { handle in
      for _ in 0..<Self.races {
        // A new bucket of MFA attempts (and a new TOTP period) for each race.
        handle.tenant.clock.advance(by: 3600)
        try await Self.raceMFAToken(handle, totps: totps)
      }
    }
  }

  /// One MFA token and `racers` right codes — each of another of Bob's authenticators — sent with
  /// it at once: the token is used up by the first login, so one wins and the others get
  /// `Malformed mfa_token`.
  static func raceMFAToken(_ handle: MockTenantServer.Handle, totps: [TOTP]) async throws {
    let tenant = handle.tenant
    let now = tenant.clock.seconds
    let token = RandomToken.make(bytes: 32)
    let grant = Grant(
      clientID: "native-client-id", userID: "auth0|bob0002", scope: ["openid"], audience: nil, nonce: nil,
      organization: nil, authTime: now, includeAuthTime: false)
    tenant.transact { $0.issueMFAToken(token, for: grant, expiresAt: now + MFATokens.lifetime) }
    let bodies = totps.map { totp in
      LoopbackRace.form([
        ("grant_type", MFAAPITests.mfaOTP), ("client_id", "native-client-id"), ("mfa_token", token),
        ("otp", totp.code(at: tenant.clock.now())),
      ])
    }
    let answers = try await LoopbackRace.post(bodies, url: handle.baseURL + "oauth/token")
    let statuses = answers.map(\.status)
    #expect(answers.filter { $0.status == 200 }.count == 1, "\(statuses)")
    #expect(
      answers.filter { $0.status == 403 && $0.text.contains(OAuthError.malformedMFAToken.description) }.count
        == racers - 1, "\(statuses)")
  }

  /// The built-in fixture with `count` more users (a login searches the users of its connection)
  /// and a brute-force limit of one: the first wrong password blocks.
  static func manyUsers(_ count: Int) -> TenantFixture {
    var fixture = MockHarness.fixture
    fixture.settings.bruteForceLimit = 1
    for index in 0..<count {
      fixture.users["user\(index)"] = UserRecord(
        profile: "user\(index)", userID: "auth0|crowd\(index)", email: "user\(index)@example.com",
        password: "Crowd-Passw0rd!")
    }
    return fixture
  }

  @Test func concurrentWrongPasswordsNeverOutnumberTheBruteForceLimit() async throws {
    try await MockHarness.withServer(fixture: Self.manyUsers(10_000)) { handle in
      for round in 0..<Self.races { try await Self.racePasswords(handle, identifier: "racer\(round)@example.com") }
    }
  }

  /// Twelve wrong passwords for one identifier at once: exactly `limit` are compared (and answered
  /// "Wrong email or password."), every other is refused as blocked.
  static func racePasswords(_ handle: MockTenantServer.Handle, identifier: String) async throws {
    let limit = handle.tenant.fixture.settings.bruteForceLimit
    let body = LoopbackRace.form([
      ("grant_type", "http://auth0.com/oauth/grant-type/password-realm"), ("client_id", "native-client-id"),
      ("username", identifier), ("password", "wrong-password"), ("realm", "Username-Password-Authentication"),
    ])
    let answers = try await LoopbackRace.post(
      Array(repeating: body, count: 12), url: handle.baseURL + "oauth/token")
    let statuses = answers.map(\.status)
    let wrong = answers.filter { $0.status == 403 && $0.text.contains(OAuthError.wrongCredentials.description) }
    let blocked = answers.filter { $0.status == 429 && $0.text.contains("too_many_attempts") }
    #expect(wrong.count == limit, "\(statuses)")
    #expect(blocked.count == 12 - limit, "\(statuses)")
  }
}
