public import AuthFlowCore
import AuthFlowScenario

/// One client profile of a tenant (`clients.<name>` in authflow.yaml, a client of a mock fixture),
/// read through the keys authflow knows. The profile itself stays a value (`client` and
/// `tenant.clients.<name>` in expressions); actions, the doctor and the probes read it here, so a
/// key's name is written once.
public struct ClientProfile: Sendable, Hashable {
  /// The profile as given: its values evaluated, its secrets wrapped.
  public var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  /// `client_id`; nil when absent or empty.
  public var clientID: String? { text("client_id") }

  /// `client_secret`, revealed (it is about to be sent); nil when absent or empty.
  public var clientSecret: String? { text("client_secret") }

  /// `client_secret` as the profile holds it (a secret value), for request bodies.
  public var clientSecretValue: Value? {
    guard clientSecret != nil, let member = value.member("client_secret") else { return nil }
    return member.asSecret
  }

  /// `redirect_uri`; nil when absent or empty.
  public var redirectURI: String? { text("redirect_uri") }

  /// `grant_types`; nil when the profile does not list them.
  public var grantTypes: [String]? {
    value.member("grant_types")?.arrayValue?.compactMap(\.stringValue)
  }

  /// `type` (Auth0's application type: `native`, `spa`, `regular_web`, `m2m`) or `client_type`.
  public var type: String? { text("type") ?? text("client_type") }

  /// `token_endpoint_auth_method` as written (a value from `${{ env.… }}` is checked only when
  /// used); nil when absent or empty.
  public var tokenEndpointAuthMethod: String? { text(ClientAuthenticationMethod.profileKey) }

  /// Whether the profile may take part in the code flow: it has a `redirect_uri` and, when it
  /// lists its grants, `authorization_code` is one of them.
  public var usesCodeFlow: Bool {
    guard redirectURI != nil else { return false }
    return grantTypes.map { $0.contains("authorization_code") } ?? true
  }

  private func text(_ key: String) -> String? {
    value.member(key)?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
  }
}

extension TenantContext {
  /// The client profile named `name`.
  public func client(named name: String) -> ClientProfile? {
    clients[name].map(ClientProfile.init)
  }

  /// The `redirect_uri` of every client profile: where a browser's navigation ends a flow.
  var callbackPrefixes: [String] {
    clients.values.compactMap { ClientProfile($0).redirectURI }
  }
}
