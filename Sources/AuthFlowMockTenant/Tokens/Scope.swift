/// Scope lists as they travel: space-separated.
enum Scope {
  static let oidc: Set<String> = ["openid", "profile", "email", "offline_access", "phone", "address"]
  static let legacyAttributes: Set<String> = [
    "name", "given_name", "family_name", "nickname", "picture", "email", "email_verified", "phone_number",
    "created_at", "identities", "updated_at",
  ]

  static func parse(_ text: String?) -> [String] {
    guard let text else { return [] }
    var seen = Set<String>()
    return text.split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
  }

  static func join(_ scopes: [String]) -> String { scopes.joined(separator: " ") }
}
