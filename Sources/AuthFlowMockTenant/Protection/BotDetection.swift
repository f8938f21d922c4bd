import AuthFlowJOSE

/// Bot Detection (docs/protocol.md §9), made deterministic for tests: when the tenant's `bot_detection`
/// is on, a request is suspicious when its identifier (email or username) contains `+suspicious`
/// (e.g. `eve+suspicious@example.com`). Direct logins and signups then answer
/// `requires_verification`; Universal Login shows a challenge field the page fills itself (a
/// simulated CAPTCHA a real form submission carries back).
struct BotDetection {
  let tenant: MockTenant

  static let marker = "+suspicious"

  func isSuspicious(identifier: String?) -> Bool {
    guard tenant.fixture.settings.botDetection, let identifier else { return false }
    return identifier.lowercased().contains(Self.marker)
  }

  /// The challenge answer a transaction's form carries (derived from its CSRF token, so it is bound
  /// to the transaction).
  static func challengeAnswer(for transaction: LoginTransaction) -> String {
    "captcha-" + String(transaction.csrf.prefix(12))
  }

  static func verify(_ answer: String?, for transaction: LoginTransaction) -> Bool {
    guard let answer else { return false }
    return RandomToken.constantTimeEquals(answer, challengeAnswer(for: transaction))
  }
}
