public import AuthFlowCore
public import Foundation

/// The types OpenID Connect Core §5.1 gives the standard claims, checked as the OpenID
/// Foundation's conformance suite checks an ID token's and a UserInfo response's claims
/// (`ValidateIdTokenStandardClaims`, `ValidateUserInfoStandardClaims`): a string claim is a
/// non-blank JSON string other than `"null"`, `email_verified` and `phone_number_verified` are JSON
/// booleans, `updated_at` a number, `birthdate` `YYYY-MM-DD` (or `0000-MM-DD`, or a year alone), and
/// `address` an object whose members are strings. Claims outside OIDC Core §5.1 are not judged.
public enum StandardClaims {
  /// The string claims of OIDC Core §5.1.
  public static let strings: Set<String> = [
    "sub", "name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "profile",
    "picture", "website", "email", "gender", "zoneinfo", "locale", "phone_number",
  ]
  /// The boolean claims of OIDC Core §5.1.
  public static let booleans: Set<String> = ["email_verified", "phone_number_verified"]
  /// The string members of `address` (OIDC Core §5.1.1).
  public static let addressMembers: Set<String> = [
    "formatted", "street_address", "locality", "region", "postal_code", "country",
  ]
  /// The oldest `birthdate` year accepted besides `0000` (year omitted), as the suite does.
  static let earliestBirthYear = 1850

  /// The first claim whose value is not of its OIDC Core §5.1 type, as `(claim, what it must be)`; nil when
  /// every standard claim present is well typed. `now` bounds a birth year.
  ///
  /// `textUpdatedAt` admits an `updated_at` that is an ISO 8601 date string, as Auth0 sends it
  /// (its documented deviation from OIDC Core §5.1's number).
  public static func firstProblem(
    in claims: [String: Value], now: Date = Date(), textUpdatedAt: Bool = false
  ) -> (claim: String, expected: String)? {
    for name in claims.keys.sorted() {
      guard let value = claims[name]?.unwrapped else { continue }
      if strings.contains(name), !isText(value) { return (name, "a non-empty string") }
      if booleans.contains(name), value.boolValue == nil { return (name, "a JSON boolean (not a string)") }
      if name == "updated_at", value.doubleValue == nil, !(textUpdatedAt && value.stringValue != nil) {
        return (name, "a number of seconds since 1970")
      }
      if name == "birthdate", !isBirthdate(value, now: now) {
        return (name, "a date YYYY-MM-DD (0000 for an omitted year) or a year YYYY")
      }
      if name == "address" {
        guard let members = value.objectValue, !members.isEmpty else { return (name, "a non-empty JSON object") }
        for member in members.keys.sorted() where addressMembers.contains(member) {
          if let item = members[member]?.unwrapped, !isText(item) { return ("address.\(member)", "a non-empty string") }
        }
      }
    }
    return nil
  }

  /// A non-blank string other than the text `null`.
  static func isText(_ value: Value) -> Bool {
    guard case .string(let text) = value else { return false }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    return !trimmed.isEmpty && trimmed.lowercased() != "null"
  }

  static func isBirthdate(_ value: Value, now: Date) -> Bool {
    guard case .string(let text) = value else { return false }
    let year = Calendar(identifier: .gregorian).component(.year, from: now)
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard let first = parts.first, first.count == 4, let birthYear = Int(first) else { return false }
    let yearOK = birthYear == 0 && parts.count == 3 || (earliestBirthYear...year).contains(birthYear)
    guard yearOK else { return false }
    if parts.count == 1 { return birthYear != 0 }
    guard parts.count == 3, parts[1].count == 2, parts[2].count == 2, let month = Int(parts[1]),
      let day = Int(parts[2]),
      (1...12).contains(month)
    else { return false }
    let days = [
      31, birthYear % 4 == 0 && (birthYear % 100 != 0 || birthYear % 400 == 0) ? 29 : 28, 31, 30, 31, 30,
      31, 31, 30, 31, 30, 31,
    ]
    return (1...days[month - 1]).contains(day)
  }
}
