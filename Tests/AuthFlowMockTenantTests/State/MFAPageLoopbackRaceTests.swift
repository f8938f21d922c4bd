import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Testing

@testable import AuthFlowMockTenant

/// The Universal Login MFA page's failure counter over real TCP: many wrong codes for one
/// transaction at once, handled on the server's event loops in parallel. Each wrong code is
/// counted in one step of ``MockState`` (``MockState/countMFAPageFailure(transaction:now:maxFailures:lifetime:)``),
/// so at most `maxFailures - 1` of them get the "wrong code" page, the transaction is blocked for
/// good, and a right code afterwards does not finish the login.
@Suite struct MFAPageLoopbackRaceTests {
  @Test func wrongCodesAtOnceNeverOutnumberTheTransactionsFailureLimit() async throws {
    try await MockHarness.withServer(exercise)
  }

  private func exercise(_ handle: MockTenantServer.Handle) async throws {
    #expect(handle.baseURL.hasPrefix("http://127.0.0.1:"))
    // The interleaving that loses an update is a matter of microseconds, so the race runs on
    // several transactions, each with the user's attempt bucket full again (an hour later on the
    // virtual clock).
    for _ in 0..<Self.races {
      handle.tenant.clock.advance(by: 3600)
      try await race(handle)
    }
  }

  static let races = 6

  private func race(_ handle: MockTenantServer.Handle) async throws {
    // Bob (enrolled in TOTP) has passed the password step of a transaction: its MFA page is next
    // (reaching it through the login form is covered by UniversalLoginMFATests).
    let request = AuthorizeRequest(
      clientID: "native-client-id", redirectURI: MockHarness.nativeCallback, responseType: "code",
      responseMode: nil, state: nil, nonce: nil, scope: ["openid"], audience: nil,
      codeChallenge: PKCE.challenge(for: AuthorizeParameters().verifier), codeChallengeMethod: .s256,
      organization: nil, maxAge: nil, connection: nil, loginHint: nil, invitation: nil)
    let transaction = LoginTransaction(
      id: RandomToken.make(bytes: 24), request: request, csrf: RandomToken.make(bytes: 24),
      pendingMFAUserID: "auth0|bob0002")
    let now = handle.tenant.clock.seconds
    handle.tenant.transact { $0.startLogin(transaction, expiresAt: now + UniversalLoginMFARoutes.lifetime) }
    let totp = try #require(TOTP(base32Secret: "JBSWY3DPEHPK3PXP"))
    let right = totp.code(at: handle.tenant.clock.now())
    let wrong = String(format: "%06d", ((Int(right) ?? 0) + 500_000) % 1_000_000)
    let page = handle.baseURL + "u/mfa-otp-challenge?state=" + escape(transaction.id)
    let cookie = TransactionBinding.cookieName(transaction.id) + "=" + transaction.binding
    func form(_ code: String) -> String {
      [("state", transaction.id), ("_csrf", transaction.csrf), ("code", code)]
        .map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    let racers = 30
    let answers = try await LoopbackRace.post(Array(repeating: form(wrong), count: racers), url: page, cookie: cookie)
    let wrongPages = answers.filter { $0.status == 400 && $0.text.contains(LoginMessages.wrongMFACode) }
    let blocked = answers.filter { $0.status == 429 && $0.text.contains("too_many_attempts") }
    #expect(answers.count == racers)
    #expect(
      wrongPages.count <= UniversalLoginMFARoutes.maxFailures - 1,
      "\(wrongPages.count) wrong-code pages: \(answers.map(\.status))")
    #expect(blocked.count >= 1, "\(answers.map(\.status))")
    #expect(answers.allSatisfy { [400, 429].contains($0.status) }, "\(answers.map(\.status))")
    // The transaction is gone for good: no late write brings it back.
    #expect(handle.tenant.read { $0.transactions.live(transaction.id, now: handle.tenant.clock.seconds) } == nil)
    let after = try await LoopbackRace.post([form(right)], url: page, cookie: cookie)
    #expect(after.first?.status == 400, "\(after.map(\.status))")
    #expect(after.first?.location == nil)
  }
}
