import AuthFlowCore

/// Lock v1's `A0AuthParameters` and its wire encoding `asAPIPayload` (docs/protocol.md §10).
struct LockParameters: Sendable {
  /// Lock's default scope.
  static let defaultScope = "openid offline_access"
  /// What Lock sends as `device` when none is given (it used `UIDevice.name`).
  static let defaultDevice = "authflow"

  var members: [String: Value]

  init(_ members: [String: Value]) {
    self.members = members
  }

  /// The parameters as sent: `scope` space-joined; `device` only with `offline_access` (default
  /// device name when not given); `connection_scopes` reduced to the current connection's entry,
  /// comma-joined, as `connection_scope`; every other key verbatim.
  func payload(connection: String?) -> [(String, String)] {
    var pairs: [(String, String)] = []
    let scope = Self.text(members["scope"], separator: " ") ?? Self.defaultScope
    pairs.append(("scope", scope))
    if scope.split(separator: " ").contains("offline_access") {
      pairs.append(("device", Self.text(members["device"], separator: " ") ?? Self.defaultDevice))
    }
    let current = Self.text(members["connection"], separator: " ") ?? connection
    if let current, let entry = members["connection_scopes"]?.objectValue?[current],
      let joined = Self.text(entry, separator: ",")
    {
      pairs.append(("connection_scope", joined))
    }
    for key in members.keys.sorted() where !["scope", "device", "connection_scopes"].contains(key) {
      if let value = Self.text(members[key], separator: " ") { pairs.append((key, value)) }
    }
    return pairs
  }

  /// A scalar as text, a list joined with `separator`; nil for null and mappings.
  static func text(_ value: Value?, separator: String) -> String? {
    guard let value, !value.isNull else { return nil }
    if let items = value.arrayValue {
      return items.compactMap { text($0, separator: separator) }.joined(separator: separator)
    }
    if value.objectValue != nil { return nil }
    return value.display(revealSecrets: true)
  }
}
