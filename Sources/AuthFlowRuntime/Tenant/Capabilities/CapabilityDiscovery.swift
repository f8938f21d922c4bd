/// Capabilities read from a discovery document, each with the evidence that shows it, and for the
/// discoverable ones the tenant lacks, where they were looked for.
public struct CapabilityDiscovery: Sendable, Equatable {
  /// Capability → evidence ("discovery: grant_types_supported contains refresh_token").
  public var evidence: [String: String] = [:]
  /// Discoverable capability the document does not show → what was looked at
  /// ("discovery: code_challenge_methods_supported lacks S256").
  public var absence: [String: String] = [:]

  /// The standard grant types and the capability each one shows.
  static let standardGrants: [(grant: String, capability: String)] = [
    ("authorization_code", "authorization_code"), ("refresh_token", "refresh_token"), ("password", "password"),
    ("client_credentials", "client_credentials"), ("implicit", "implicit"),
  ]

  /// Auth0's extension grants (read only on `auth0` tenants: their endpoints are Auth0's).
  static let auth0Grants: [(grant: String, capability: String)] = [
    ("http://auth0.com/oauth/grant-type/password-realm", "password_realm"),
    ("http://auth0.com/oauth/grant-type/passwordless/otp", "passwordless"),
    ("http://auth0.com/oauth/grant-type/mfa-otp", "mfa"),
  ]

  /// Each capability a discovery document can show, with where it is read (for the docs).
  public static var sources: [(capability: String, source: String)] {
    [("discovery", "the discovery document itself")]
      + standardGrants.map { ($0.capability, "`grant_types_supported` lists `\($0.grant)`") }
      + auth0Grants.map { ($0.capability, "`grant_types_supported` lists `\($0.grant)` (`auth0` tenants)") }
      + [
        ("implicit", "`response_types_supported` lists `id_token`"),
        ("pkce", "`code_challenge_methods_supported` lists `S256`"),
        ("userinfo", "`userinfo_endpoint`"), ("revocation", "`revocation_endpoint`"),
        ("logout", "`end_session_endpoint` (or Auth0's `/v2/logout`)"),
      ]
  }

  /// Reads `metadata`; `auth0Extensions` adds Auth0's extension grants.
  public init(_ metadata: ProviderMetadata, auth0Extensions: Bool = false) {
    let source = "discovery"
    evidence["discovery"] =
      "\(source): \(ProviderMetadata.discoveryURL(issuer: metadata.issuer)) names issuer \(metadata.issuer)"
    let grants = metadata.effectiveGrantTypes
    let grantsSource =
      metadata.grantTypesSupported == nil
      ? "\(source): grant_types_supported is absent; its OpenID default (authorization_code, implicit)"
      : "\(source): grant_types_supported"
    for (grant, capability) in Self.standardGrants + (auth0Extensions ? Self.auth0Grants : []) {
      if grants.contains(grant) {
        evidence[capability] = "\(grantsSource) contains \(grant)"
      } else {
        absence[capability] = "\(grantsSource) lacks \(grant)"
      }
    }
    if evidence["authorization_code"] != nil, metadata.authorizationEndpoint == nil || metadata.tokenEndpoint == nil {
      evidence["authorization_code"] = nil
      absence["authorization_code"] = "\(source): authorization_endpoint or token_endpoint is absent"
    }
    if evidence["implicit"] == nil, let types = metadata.responseTypesSupported,
      let pure = types.first(where: { $0 == "id_token" || $0 == "token id_token" || $0 == "id_token token" })
    {
      evidence["implicit"] = "\(source): response_types_supported contains \(pure)"
      absence["implicit"] = nil
    }
    let methods = metadata.codeChallengeMethodsSupported
    if methods?.contains("S256") == true {
      evidence["pkce"] = "\(source): code_challenge_methods_supported contains S256"
    } else {
      absence["pkce"] =
        methods == nil
        ? "\(source): code_challenge_methods_supported is absent"
        : "\(source): code_challenge_methods_supported lacks S256"
    }
    let endpoints: [(member: String, url: String?, capability: String)] = [
      ("userinfo_endpoint", metadata.userinfoEndpoint, "userinfo"),
      ("revocation_endpoint", metadata.revocationEndpoint, "revocation"),
      ("end_session_endpoint", metadata.endSessionEndpoint, "logout"),
    ]
    for (member, url, capability) in endpoints {
      if let url {
        evidence[capability] = "\(source): \(member) is \(url)"
      } else {
        absence[capability] = "\(source): \(member) is absent"
      }
    }
  }

  /// Nothing discovered.
  public init() {}

  /// The capabilities shown.
  public var capabilities: Set<String> { Set(evidence.keys) }
}
