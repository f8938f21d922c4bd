import AuthFlowCore
import AuthFlowJOSE

/// Every rule a new database password must pass, in the order the mock checks them: the
/// strength policy (`PasswordStrengthError`), the Password Dictionary (`password_dictionary_error`),
/// Personal Data (`password_no_user_info_error`) and, for an existing user, Password History
/// (`PasswordHistoryError`) — docs/protocol.md §4.1, §9.
///
/// Dictionary: the whole password, compared case-insensitively, against a list of common
/// passwords plus the tenant's `password_dictionary_words`. History: the user's last
/// `password_history_size` passwords, the current one included.
struct PasswordRules {
  let tenant: MockTenant

  /// Why a password is refused.
  enum Failure: Error, Sendable {
    case strength(PasswordPolicy, rules: Value)
    case dictionary
    case personalInfo
    case history
  }

  /// A small list of the most common passwords (lowercase), the built-in dictionary.
  static let commonPasswords: Set<String> = [
    "123456", "123456789", "12345678", "password", "qwerty123", "qwerty1!", "password1", "password1!",
    "password123", "password123!", "p@ssw0rd", "p@ssw0rd!", "passw0rd", "passw0rd!", "welcome1", "welcome1!",
    "welcome123", "welcome123!", "iloveyou", "iloveyou1!", "admin123", "admin123!", "letmein1", "letmein1!",
    "abc12345", "abc123!!", "monkey123", "dragon123", "football1", "baseball1", "sunshine1", "princess1",
    "1q2w3e4r", "1q2w3e4r!", "zaq12wsx", "qwertyuiop", "trustno1", "superman1", "changeme", "changeme1!",
    "secret123", "secret123!", "summer2024!", "winter2024!", "spring2025!", "autumn2025!", "password2024!",
    "password2025!", "company123!", "aa123456",
  ]

  /// The first rule `password` breaks; `userID` names the existing user whose history counts.
  /// `personalInfo` holds the new user's values (signup); an existing user's come from their record.
  func failure(for password: String, userID: String?, personalInfo: [String?] = []) async -> Failure? {
    let settings = tenant.fixture.settings
    let (verified, rules) = settings.passwordPolicy.evaluate(password)
    guard verified else { return .strength(settings.passwordPolicy, rules: rules) }
    if settings.passwordDictionary {
      let lowered = password.lowercased()
      if Self.commonPasswords.contains(lowered)
        || settings.passwordDictionaryWords.contains(where: {
          $0.lowercased() == lowered
        })
      {
        return .dictionary
      }
    }
    if settings.passwordNoPersonalInfo {
      var values = personalInfo
      if let userID, let user = tenant.read({ $0.users.user(id: userID) }) {
        values += PersonalInfo.values(of: user)
      }
      if PersonalInfo.contains(password, anyOf: values.compactMap { $0 }) { return .personalInfo }
    }
    if settings.passwordHistorySize > 0, let userID {
      let recent = tenant.read({ $0.users.recentPasswords(userID: userID, count: settings.passwordHistorySize) })
      if recent.contains(where: { RandomToken.constantTimeEquals($0, password) }) { return .history }
    }
    return nil
  }

  /// The policy as the My Account API describes it on a password enrollment (docs/protocol.md §6:
  /// `policy{complexity,profile_data,history,dictionary}`; member names inside are the mock's).
  var policyDescription: Value {
    let settings = tenant.fixture.settings
    return .object([
      "complexity": .object([
        "level": .string(settings.passwordPolicy.rawValue),
        "min_length": .int(settings.passwordPolicy.minimumLength),
        "character_types_required": .int(settings.passwordPolicy.requiredClasses),
      ]),
      "profile_data": .object(["active": .bool(settings.passwordNoPersonalInfo)]),
      "history": .object([
        "active": .bool(settings.passwordHistorySize > 0), "size": .int(settings.passwordHistorySize),
      ]),
      "dictionary": .object(["active": .bool(settings.passwordDictionary)]),
    ])
  }
}

extension PasswordRules.Failure {
  /// The failure in the legacy envelope of `/dbconnections/*` (docs/protocol.md §4.1).
  var legacyError: LegacyError {
    switch self {
    case .strength(let policy, let rules): return LegacyError.passwordStrength(policy, rules: rules)
    case .dictionary: return LegacyError.passwordDictionary
    case .personalInfo: return LegacyError.passwordNoUserInfo
    case .history: return LegacyError.passwordHistory
    }
  }

  /// The text a page shows (the reset-password form).
  var pageMessage: String {
    switch self {
    case .strength(let policy, _): return "Password is too weak:\n" + policy.text
    case .dictionary: return PasswordRuleMessages.dictionary
    case .personalInfo: return PasswordRuleMessages.personalInfo
    case .history: return PasswordRuleMessages.history
    }
  }
}

/// The texts of the dictionary and history errors (Lock's English strings; the exact Auth0 API
/// texts are UNCONFIRMED).
enum PasswordRuleMessages {
  static let dictionary = "Password is too common."
  static let history = "Password has previously been used."
  static let personalInfo = "Password contains user information."
}
