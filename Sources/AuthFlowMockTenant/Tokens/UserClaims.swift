import AuthFlowCore
import Foundation

/// The OIDC claims of a user, filtered by scope (docs/protocol.md §4.6, §10).
enum UserClaims {
  /// Claims for `scope`. Standard mode: `profile` and `email` map to their claim sets. Legacy mode:
  /// attribute names are scopes too, and `profile` gives every attribute.
  static func claims(
    for user: UserRecord, scope: [String], legacy: Bool, updatedAt format: UpdatedAtFormat = .iso8601
  ) -> [String: Value] {
    guard scope.contains("openid") else { return [:] }
    let all = attributes(of: user, updatedAt: format)
    var result: [String: Value] = ["sub": .string(user.userID)]
    var names: Set<String> = []
    if scope.contains("profile") {
      if legacy {
        names.formUnion(all.keys)
        result["user_metadata"] = .object(user.userMetadata)
      } else {
        names.formUnion(["name", "family_name", "given_name", "nickname", "picture", "updated_at"])
      }
    }
    if scope.contains("email") { names.formUnion(["email", "email_verified"]) }
    if scope.contains("phone") { names.formUnion(["phone_number", "phone_number_verified"]) }
    if legacy {
      for name in scope where Scope.legacyAttributes.contains(name) { names.insert(name) }
      if scope.contains("email") { names.insert("email_verified") }
    }
    for name in names {
      if let value = all[name] { result[name] = value }
    }
    return result
  }

  /// The user's attributes; `updated_at` as Auth0 writes it (an ISO 8601 string) unless `format`
  /// says seconds since 1970 (OIDC Core §5.1).
  static func attributes(of user: UserRecord, updatedAt format: UpdatedAtFormat = .iso8601) -> [String: Value] {
    let updatedAt: Value =
      format == .epoch ? .int(Int(user.updatedAt.rounded(.down))) : .string(isoMilliseconds(user.updatedAt))
    var all: [String: Value] = ["updated_at": updatedAt]
    func put(_ key: String, _ text: String?) { if let text { all[key] = .string(text) } }
    put("name", user.name ?? user.email)
    put("nickname", user.nickname ?? user.email.map { String($0.prefix { $0 != "@" }) })
    put("picture", user.picture)
    put("given_name", user.givenName)
    put("family_name", user.familyName)
    put("email", user.email)
    put("phone_number", user.phoneNumber)
    if user.email != nil { all["email_verified"] = .bool(user.emailVerified) }
    if user.phoneNumber != nil { all["phone_number_verified"] = .bool(user.phoneVerified) }
    return all
  }

  /// A dotted path into the user: `email`, `app_metadata.roles`, `user_metadata.favorite_color`.
  static func lookup(_ path: String, in user: UserRecord) -> Value? {
    let parts = path.split(separator: ".").map(String.init)
    guard let first = parts.first else { return nil }
    var current: Value
    switch first {
    case "app_metadata": current = .object(user.appMetadata)
    case "user_metadata": current = .object(user.userMetadata)
    case "user_id": current = .string(user.userID)
    default:
      guard let value = attributes(of: user)[first] else { return nil }
      current = value
    }
    for part in parts.dropFirst() {
      guard let next = current.objectValue?[part] else { return nil }
      current = next
    }
    return current
  }

  /// `2015-08-19T17:18:01.000Z`
  ///
  /// Written by hand (UTC, proleptic Gregorian): an `ISO8601DateFormatter` costs an ICU calendar
  /// per call, and this runs for every token and `/userinfo` answer.
  static func isoMilliseconds(_ seconds: Double) -> String {
    // Clamped to the years 0000…9999, the range the format can write (and an Int64 can hold).
    let bounded = seconds.isFinite ? min(max(seconds, -62_167_219_200), 253_402_300_799) : 0
    let milliseconds = Int64((bounded * 1000).rounded())
    let (days, dayMilliseconds) = milliseconds.floorDivided(by: 86_400_000)
    let (year, month, day) = civilDate(daysSinceEpoch: days)
    let second = dayMilliseconds / 1000
    func pad(_ number: Int64, _ width: Int) -> String {
      let digits = String(number)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):"
      + "\(pad(second % 60, 2)).\(pad(dayMilliseconds % 1000, 3))Z"
  }

  /// Year, month and day of the day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
  static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

extension Int64 {
  /// Quotient and remainder rounded toward negative infinity (the remainder is never negative).
  fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }
}
