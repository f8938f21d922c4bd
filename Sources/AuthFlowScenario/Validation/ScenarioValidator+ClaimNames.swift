import AuthFlowCore

extension ScenarioValidator {
  /// The claims a token's `claims` may hold that have a name in a standard or in Auth0's docs
  /// (RFC 7519 §4.1, OpenID Connect Core §2, §3.1.3.6 and §5.1, RFC 8693 §4, docs/protocol.md §3 and §8).
  static let knownClaimNames: Set<String> =
    Set(ResultField.userClaims.map(\.name)).union([
      "iss", "sub", "aud", "exp", "nbf", "iat", "jti", "auth_time", "nonce", "acr", "amr", "azp",
      "at_hash", "c_hash", "s_hash", "sid", "cnf", "act", "may_act", "client_id", "scope", "permissions", "gty",
      "org_id", "org_name", "events",
    ])

  /// The token fields whose `claims` an expectation may check.
  static let tokenFields: Set<String> = ["id_token", "access_token"]

  /// A warning where an expectation on a token claim whose name is one edit or two from a known
  /// claim's, but is none, uses a matcher that holds when the claim is absent: `nonse: { exists:
  /// false }` or `emial_verified: { not_equals: false }` pass whatever the token says. Claims are
  /// open (a tenant adds its own), so this is a warning, not an error.
  func checkClaimNames(_ scenario: Scenario) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for step in scenario.steps + scenario.cleanup {
      for expectation in step.expectations {
        let components = expectation.components
        guard components.count >= 3, Self.tokenFields.contains(components[0]), components[1] == "claims",
          !Self.knownClaimNames.contains(components[2]),
          let known = Suggestion.closest(to: components[2], in: Self.knownClaimNames),
          let matcher = expectation.matchers.first(where: Self.holdsWhenAbsent)
        else { continue }
        // Underline the claim's name when the path is written with dots.
        let written = "\(components[0]).claims."
        let location =
          expectation.path.value.hasPrefix(written + components[2])
          ? expectation.path.location.advanced(by: written.unicodeScalars.count) : expectation.path.location
        diagnostics.append(
          Diagnostic(
            .warning,
            "'\(components[2])' is not a claim a token is known to carry, and \(matcher.kind.rawValue) holds when "
              + "it is absent: a misspelt claim name passes whatever the token says",
            at: location, length: components[2].unicodeScalars.count,
            hint: "did you mean '\(known)'? (if '\(components[2])' is your tenant's own claim, this check is fine)"))
      }
    }
    return diagnostics
  }

  /// Whether `matcher` holds for an absent value: a negated matcher, or one whose literal operand
  /// accepts nothing there (`exists: false`).
  private static func holdsWhenAbsent(_ matcher: Matcher) -> Bool {
    guard let operand = matcher.operand.literalValue else { return matcher.kind.rule.isNegation }
    return matcher.kind.failure(expected: operand, actual: nil) == nil
  }
}
