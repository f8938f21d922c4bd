/// Auth0's "Disallow Personal Data" password rule (docs/protocol.md §4.1 `password_no_user_info_error`):
/// the password may not contain the user's name parts, username, nickname or the local part of the
/// email, compared case-insensitively. Parts shorter than `minimumLength` characters are ignored
/// (Auth0's threshold is UNCONFIRMED; the mock's choice keeps `Al` from refusing every password
/// with an `al`).
enum PersonalInfo {
  static let minimumLength = 3

  /// The values of an existing user the rule looks at.
  static func values(of user: UserRecord) -> [String?] {
    [user.email, user.username, user.name, user.nickname, user.givenName, user.familyName]
  }

  /// Whether `password` contains a part of any of `values`: an email counts by its local part,
  /// a name by each of its words as well as whole.
  static func contains(_ password: String, anyOf values: [String]) -> Bool {
    let lowered = password.lowercased()
    return values.flatMap(parts).contains { lowered.contains($0) }
  }

  static func parts(of value: String) -> [String] {
    let lowered = value.lowercased()
    let base = lowered.split(separator: "@", maxSplits: 1).first.map(String.init) ?? lowered
    let words = base.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    return ([base] + words).filter { $0.count >= minimumLength }
  }
}
