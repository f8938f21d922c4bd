import AuthFlowCore

/// Secondary identities linked to primary users (Management API `…/identities`).
struct IdentityLinkStore: Sendable {
  private var linked: [String: [Value]] = [:]

  func identities(of userID: String) -> [Value] { linked[userID] ?? [] }

  mutating func link(_ identity: Value, to userID: String) {
    linked[userID, default: []].append(identity)
  }

  /// Removes the identity `provider|userID`; false when it was not linked.
  mutating func unlink(provider: String, userID: String, from primary: String) -> Bool {
    let before = linked[primary]?.count ?? 0
    linked[primary]?.removeAll {
      $0.member("provider")?.stringValue == provider && $0.member("user_id")?.stringValue == userID
    }
    return (linked[primary]?.count ?? 0) < before
  }

  func isLinked(_ userID: String) -> Bool {
    linked.values.contains { identities in
      identities.contains { identity in
        let provider = identity.member("provider")?.stringValue ?? ""
        return "\(provider)|\(identity.member("user_id")?.stringValue ?? "")" == userID
      }
    }
  }

  /// The primary user an identity (`provider|id`) is linked to, if any: logging in with the
  /// identity logs in as the primary.
  func primary(of userID: String) -> String? {
    linked.first { _, identities in
      identities.contains { identity in
        let provider = identity.member("provider")?.stringValue ?? ""
        return "\(provider)|\(identity.member("user_id")?.stringValue ?? "")" == userID
      }
    }?.key
  }

  /// How many identities are linked, over all users.
  var count: Int { linked.values.reduce(0) { $0 + $1.count } }
}
