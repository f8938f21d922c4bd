import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

extension TokenRoutes {
  /// Native social subject token types and the connection each is exchanged on (docs/protocol.md §3.1).
  static let socialTokenTypes = [
    "http://auth0.com/oauth/token-type/apple-authz-code": "apple",
    "http://auth0.com/oauth/token-type/facebook-info-session-access-token": "facebook",
  ]
  /// Namespaces a Custom Token Exchange type may not use.
  static let reservedNamespaces = [
    "http://auth0.com", "https://auth0.com", "http://okta.com", "https://okta.com", "urn:ietf", "urn:auth0",
    "urn:okta",
  ]
  static let issuedTokenType = "urn:ietf:params:oauth:token-type:access_token"

  static func reservedTokenType(_ type: String) -> OAuthError {
    OAuthError.invalidRequest("The subject_token_type \(type) uses a reserved namespace.")
  }
  static func noExchangeProfile(_ type: String) -> OAuthError {
    OAuthError.invalidRequest("There is no Custom Token Exchange profile for subject_token_type \(type).")
  }
  /// Exact Auth0 text UNCONFIRMED.
  static let invalidSubjectToken = OAuthError.invalidGrant("Invalid subject_token.")
  static let invalidUserProfile = OAuthError.invalidRequest("user_profile must be a JSON-encoded object.")

  /// Token exchange: Apple authorization codes (single use) and Facebook session tokens against the
  /// fixture's simulated providers; the user is found or created and the profile's name merged.
  func tokenExchange(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let subjectToken = parameters.string("subject_token") else {
      throw OAuthError.missingParameter("subject_token")
    }
    guard let type = parameters.string("subject_token_type") else {
      throw OAuthError.missingParameter("subject_token_type")
    }
    guard let connectionName = Self.socialTokenTypes[type] else {
      if Self.reservedNamespaces.contains(where: { type.lowercased().hasPrefix($0) }) {
        throw Self.reservedTokenType(type)
      }
      throw Self.noExchangeProfile(type)
    }
    guard let connection = tenant.fixture.connection(named: connectionName) else {
      throw OAuthError.connectionNotFound
    }
    guard connection.enabledClients.isEmpty || connection.enabledClients.contains(client.profile) else {
      throw OAuthError.connectionDisabled
    }
    let profile = try Self.userProfile(parameters.values["user_profile"])
    try checkAudience(parameters.string("audience"))
    guard
      let subject = connection.subjectTokens.first(where: { RandomToken.constantTimeEquals($0.token, subjectToken) })
    else { throw Self.invalidSubjectToken }
    if connectionName == "apple" {
      // Apple authorization codes are single use.
      let now = tenant.clock.seconds
      guard tenant.transact({ $0.redeemSubjectToken(subjectToken, now: now, rememberUntil: now + 86_400) }) else {
        throw Self.invalidSubjectToken
      }
    }
    let userID = "\(connectionName)|\(subject.userID)"
    let fresh = UserRecord(
      profile: subject.email ?? userID, userID: userID, connection: connectionName, email: subject.email,
      emailVerified: subject.email != nil, name: subject.name, updatedAt: tenant.clock.seconds)
    // Found or created, and the profile merged into the stored record, in one step.
    let user = tenant.transact {
      $0.providerLogin(fresh, followLinks: false, refresh: { user in Self.merge(profile, into: &user) })
    }
    var body = try await login(user, parameters: parameters, client: client, skipMFA: true)
    body["issued_token_type"] = .string(Self.issuedTokenType)
    return body
  }

  /// `user_profile`: a JSON-encoded object in a string (an object is accepted too).
  static func userProfile(_ value: Value?) throws(OAuthError) -> [String: Value] {
    switch value {
    case nil, .null?: return [:]
    case .object(let members)?: return members
    case .string(let text)?:
      guard case .object(let members)? = try? Value(json: Data(text.utf8)) else { throw invalidUserProfile }
      return members
    default: throw invalidUserProfile
    }
  }

  /// Apple `{"name":{"firstName","lastName"}}` or Facebook `{"name","first_name","last_name","email"}`.
  static func merge(_ profile: [String: Value], into user: inout UserRecord) {
    if case .object(let name)? = profile["name"] {
      let first = name["firstName"]?.stringValue
      let last = name["lastName"]?.stringValue
      if let first { user.givenName = first }
      if let last { user.familyName = last }
      let full = [first, last].compactMap { $0 }.joined(separator: " ")
      if !full.isEmpty { user.name = full }
    } else if let name = profile["name"]?.stringValue {
      user.name = name
    }
    if let first = profile["first_name"]?.stringValue { user.givenName = first }
    if let last = profile["last_name"]?.stringValue { user.familyName = last }
    if user.email == nil, let email = profile["email"]?.stringValue {
      user.email = email
      user.emailVerified = false
    }
  }
}
