/// Scope lists as they travel: space-separated.
enum Scope {
  static let oidc: Set<String> = ["openid", "profile", "email", "offline_access", "phone", "address"]
  static let legacyAttributes: Set<String> = [
    "name", "given_name", "family_name", "nickname", "picture", "email", "email_verified", "phone_number",
    "created_at", "identities", "updated_at",
  ]

  /// The Management API scopes a token issued in a user's context may carry (docs/protocol.md §7, "Who
  /// gets which scopes"); any other Management API scope comes only through a client grant.
  static let currentUser: Set<String> = [
    "read:current_user", "update:current_user_metadata", "create:current_user_metadata",
    "delete:current_user_metadata", "update:current_user_identities", "create:current_user_device_credentials",
    "delete:current_user_device_credentials",
  ]

  static func parse(_ text: String?) -> [String] {
    guard let text else { return [] }
    var seen = Set<String>()
    return text.split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
  }

  static func join(_ scopes: [String]) -> String { scopes.joined(separator: " ") }
}
