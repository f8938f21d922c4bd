import AuthFlowCore
import AuthFlowJOSE
import Foundation

/// What the OpenID conformance suite requires of a provider's configuration — its discovery
/// document and JWKS — before every module (`configure()`), and what its Config OP plan's one
/// module (`oidcc-discovery-endpoint-verification`) checks, each rule named by the suite's
/// condition, its clause and its severity. Read by `server_configuration`.
enum ServerConfigurationRules {
  /// The discovery document as fetched.
  struct Discovery {
    var url: String
    var status: Int
    var contentType: String?
    var members: [String: Value]
  }

  // MARK: - Before every module

  /// `CheckServerConfiguration`, `FetchServerKeys`'s `jwks_uri`, `SetProtectedResourceUrlToUserInfoEndpoint`:
  /// what every module stops on. Each missing member, as a message.
  static func required(_ discovery: Discovery) -> [String] {
    var missing: [String] = []
    for name in ["issuer", "authorization_endpoint", "token_endpoint"] where url(discovery.members[name]) == nil {
      missing.append("\(name) is not a URL (CheckServerConfiguration, OpenID Connect Discovery §3)")
    }
    if url(discovery.members["jwks_uri"]) == nil {
      missing.append("jwks_uri is not in the discovery document (FetchServerKeys, OpenID Connect Discovery §3)")
    }
    if url(discovery.members["userinfo_endpoint"]) == nil {
      missing.append(
        "userinfo_endpoint is not in the discovery document: not mandatory in OpenID Connect, but mandatory for "
          + "certification (SetProtectedResourceUrlToUserInfoEndpoint)")
    }
    return missing
  }

  /// The JWKS rules at the suite's severities (``AuthFlowJOSE/JWKSRules``), `kid` included, and
  /// whether the token endpoint admits the client's authentication method.
  static func configure(
    _ discovery: Discovery, jwks: Value, clientAuthentication method: String
  ) -> [ProtocolFinding] {
    var findings = JWKSRules.problems(in: jwks).map { problem in
      ProtocolFinding(
        problem.condition, clause: problem.clause, "the JWKS: \(problem.message)",
        severity: problem.isFailure ? .error : .warning, path: ["jwks"])
    }
    let listed = discovery.members["token_endpoint_auth_methods_supported"]
    switch method {
    case "client_secret_post":
      if listed?.arrayValue?.contains(.string(method)) != true {
        findings.append(
          ProtocolFinding(
            "EnsureServerConfigurationSupportsClientSecretPost", clause: "OpenID Connect Discovery §3",
            "token_endpoint_auth_methods_supported \(listed == nil ? "is absent" : "does not list client_secret_post")",
            path: ["discovery", "token_endpoint_auth_methods_supported"]))
      }
    case "client_secret_basic":
      if let listed, listed.arrayValue?.contains(.string(method)) != true {
        findings.append(
          ProtocolFinding(
            "EnsureServerConfigurationSupportsClientSecretBasic", clause: "OpenID Connect Discovery §3",
            "token_endpoint_auth_methods_supported does not list client_secret_basic",
            path: ["discovery", "token_endpoint_auth_methods_supported"]))
      }
    default: break
    }
    return findings
  }

  // MARK: - The Config OP plan

  /// The members a discovery document may have (OpenID Connect Discovery §3, RFC 8414 §2, and the
  /// registered extensions the suite's schema admits); another is a warning.
  static let knownMembers: Set<String> = [
    "issuer", "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "registration_endpoint",
    "scopes_supported", "response_types_supported", "response_modes_supported", "grant_types_supported",
    "acr_values_supported", "subject_types_supported", "id_token_signing_alg_values_supported",
    "id_token_encryption_alg_values_supported", "id_token_encryption_enc_values_supported",
    "userinfo_signing_alg_values_supported", "userinfo_encryption_alg_values_supported",
    "userinfo_encryption_enc_values_supported", "request_object_signing_alg_values_supported",
    "request_object_encryption_alg_values_supported", "request_object_encryption_enc_values_supported",
    "token_endpoint_auth_methods_supported", "token_endpoint_auth_signing_alg_values_supported",
    "display_values_supported", "claim_types_supported", "claims_supported", "service_documentation",
    "claims_locales_supported", "ui_locales_supported", "claims_parameter_supported", "request_parameter_supported",
    "request_uri_parameter_supported", "require_request_uri_registration", "op_policy_uri", "op_tos_uri",
    "revocation_endpoint", "revocation_endpoint_auth_methods_supported",
    "revocation_endpoint_auth_signing_alg_values_supported", "introspection_endpoint",
    "introspection_endpoint_auth_methods_supported", "introspection_endpoint_auth_signing_alg_values_supported",
    "code_challenge_methods_supported", "end_session_endpoint", "check_session_iframe",
    "frontchannel_logout_supported", "frontchannel_logout_session_supported", "backchannel_logout_supported",
    "backchannel_logout_session_supported", "device_authorization_endpoint", "pushed_authorization_request_endpoint",
    "require_pushed_authorization_requests", "mtls_endpoint_aliases", "tls_client_certificate_bound_access_tokens",
    "authorization_response_iss_parameter_supported", "backchannel_authentication_endpoint",
    "backchannel_token_delivery_modes_supported", "backchannel_authentication_request_signing_alg_values_supported",
    "backchannel_user_code_parameter_supported", "dpop_signing_alg_values_supported", "signed_metadata",
    "authorization_signing_alg_values_supported", "authorization_encryption_alg_values_supported",
    "authorization_encryption_enc_values_supported", "require_signed_request_object",
    "authorization_details_types_supported", "prompt_values_supported",
  ]

  /// The booleans RFC 8414 and OpenID Connect Discovery define.
  static let booleanMembers: Set<String> = [
    "claims_parameter_supported", "request_parameter_supported", "request_uri_parameter_supported",
    "require_request_uri_registration", "frontchannel_logout_supported", "frontchannel_logout_session_supported",
    "backchannel_logout_supported", "backchannel_logout_session_supported", "require_pushed_authorization_requests",
    "tls_client_certificate_bound_access_tokens", "authorization_response_iss_parameter_supported",
    "backchannel_user_code_parameter_supported", "require_signed_request_object",
  ]

  /// The response types OpenID Connect defines, as sets of tokens.
  static let openIDResponseTypes: [Set<String>] = [
    ["code"], ["code", "id_token"], ["id_token"], ["token", "id_token"], ["code", "id_token", "token"],
    ["code", "token"],
  ]

  /// The RP-Initiated Logout OP plan's discovery module
  /// (`oidcc-rp-initiated-logout-discovery-endpoint-verification`): every `*_endpoint` over https,
  /// and an `end_session_endpoint` that is an https URL.
  static func rpLogoutPlan(_ discovery: Discovery) -> [ProtocolFinding] {
    var findings: [ProtocolFinding] = []
    if let (name, problem) = firstNonHTTPSEndpoint(discovery.members) {
      findings.append(
        ProtocolFinding(
          "CheckDiscEndpointAllEndpointsAreHttps", clause: "OpenID Connect Discovery §3", problem,
          path: ["discovery", name]))
    }
    if let value = discovery.members["end_session_endpoint"] {
      if let problem = httpsProblem("end_session_endpoint", value) {
        findings.append(
          ProtocolFinding(
            "CheckDiscEndSessionEndpoint", clause: "OpenID Connect RP-Initiated Logout §2.1", problem,
            path: ["discovery", "end_session_endpoint"]))
      }
    } else {
      findings.append(
        ProtocolFinding(
          "CheckDiscEndSessionEndpoint", clause: "OpenID Connect RP-Initiated Logout §2.1",
          "end_session_endpoint: URL not found", path: ["discovery", "end_session_endpoint"]))
    }
    return findings
  }

  /// The checks of `oidcc-discovery-endpoint-verification`, in the suite's order.
  static func configPlan(_ discovery: Discovery, jwks: Value) -> [ProtocolFinding] {
    let members = discovery.members
    var findings: [ProtocolFinding] = []
    func fail(_ condition: String, _ clause: String, _ message: String, _ path: String, warning: Bool = false) {
      findings.append(
        ProtocolFinding(
          condition, clause: clause, message, severity: warning ? .warning : .error, path: ["discovery", path]))
    }
    if discovery.status != 200 {
      fail(
        "EnsureDiscoveryEndpointResponseStatusCodeIs200", "OpenID Connect Discovery §4",
        "the discovery document answered \(discovery.status), not 200", "status")
    }
    let mediaType = discovery.contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
    if mediaType?.lowercased() != "application/json" {
      fail(
        "CheckDiscoveryEndpointReturnedJsonContentType", "OpenID Connect Discovery §4",
        "the discovery document's Content-Type is \(discovery.contentType ?? "absent"), not application/json",
        "content_type")
    }
    if let problem = arrayProblem(members, "response_types_supported") {
      fail(
        "OIDCCCheckDiscEndpointResponseTypesSupported", "OpenID Connect Discovery §3", problem,
        "response_types_supported")
    } else if let types = strings(members["response_types_supported"]),
      !types.contains(where: { openIDResponseTypes.contains(Set($0.split(separator: " ").map(String.init))) })
    {
      fail(
        "OIDCCCheckDiscEndpointResponseTypesSupported", "OpenID Connect Discovery §3",
        "response_types_supported lists none of the response types OpenID Connect defines", "response_types_supported")
    }
    let wellKnown = ".well-known/openid-configuration"
    if !discovery.url.hasSuffix("/" + wellKnown)
      || URLComponents(string: discovery.url)?.scheme?.lowercased() != "https"
    {
      fail(
        "CheckDiscEndpointDiscoveryUrl", "OpenID Connect Discovery §4",
        "the discovery URL \(discovery.url) is not an https URL ending in /\(wellKnown)", "url")
    }
    let issuer = members["issuer"]?.stringValue
    if let issuer {
      let expected = String(discovery.url.dropLast(discovery.url.hasSuffix(wellKnown) ? wellKnown.count : 0))
      if trimmingSlash(issuer) != trimmingSlash(expected) {
        fail(
          "CheckDiscEndpointIssuer", "OpenID Connect Discovery §4.3, §7.2",
          "the issuer \(issuer) is not where the document was fetched from (\(expected)): they must match to prevent "
            + "impersonation", "issuer")
      }
      if let problem = issuerURLProblem(issuer) {
        fail(
          "CheckDiscEndpointIssuerIsValidUrl", "RFC 8414 §2", "the issuer is not a valid issuer URL: \(problem)",
          "issuer")
      }
    } else {
      fail("CheckDiscEndpointIssuer", "OpenID Connect Discovery §4.3", "the discovery document has no issuer", "issuer")
    }
    for (name, value) in members.sorted(by: { $0.key < $1.key }) {
      if let problem = schemaProblem(name, value) {
        fail("ValidateServerMetadataAgainstSchema", "OpenID Connect Discovery §3, RFC 8414 §2", problem, name)
      }
      if !knownMembers.contains(name) {
        fail(
          "CheckForUnexpectedParametersInServerMetadata", "OpenID Connect Discovery §3, RFC 8414 §2",
          "the discovery document has a member no specification defines: \(name)", name, warning: true)
      }
    }
    if let problem = arrayProblem(members, "subject_types_supported") {
      fail("CheckDiscEndpointSubjectTypesSupported", "OpenID Connect Discovery §3", problem, "subject_types_supported")
    } else if let types = strings(members["subject_types_supported"]), !types.contains("public"),
      !types.contains("pairwise")
    {
      fail(
        "CheckDiscEndpointSubjectTypesSupported", "OpenID Connect Discovery §3",
        "subject_types_supported lists neither public nor pairwise", "subject_types_supported")
    }
    if let problem = arrayProblem(members, "id_token_signing_alg_values_supported") {
      fail(
        "OIDCCCheckDiscEndpointIdTokenSigningAlgValuesSupported", "OpenID Connect Discovery §3", problem,
        "id_token_signing_alg_values_supported")
    } else if strings(members["id_token_signing_alg_values_supported"])?.contains("RS256") != true {
      fail(
        "OIDCCCheckDiscEndpointIdTokenSigningAlgValuesSupported", "OpenID Connect Discovery §3",
        "RS256 support is required, but id_token_signing_alg_values_supported does not list it",
        "id_token_signing_alg_values_supported")
    }
    if let value = members["userinfo_signing_alg_values_supported"], value.arrayValue == nil {
      fail(
        "OIDCCCheckDiscEndpointUserinfoSigningAlgValuesSupported", "OpenID Connect Discovery §3",
        "userinfo_signing_alg_values_supported is not an array", "userinfo_signing_alg_values_supported")
    }
    for (condition, name) in [
      ("CheckDiscEndpointAuthorizationEndpoint", "authorization_endpoint"),
      ("CheckDiscEndpointTokenEndpoint", "token_endpoint"), ("CheckDiscEndpointUserinfoEndpoint", "userinfo_endpoint"),
      ("CheckDiscEndpointRegistrationEndpoint", "registration_endpoint"), ("CheckJwksUri", "jwks_uri"),
    ] {
      guard let value = members[name] else {
        // Absent: the authorization and token endpoints and the JWKS fail, the UserInfo endpoint
        // warns, the registration endpoint is optional.
        if name == "userinfo_endpoint" {
          fail(condition, "OpenID Connect Discovery §3", "userinfo_endpoint is absent", name, warning: true)
        } else if name != "registration_endpoint" {
          fail(condition, "OpenID Connect Discovery §3", "\(name) is absent", name)
        }
        continue
      }
      if let problem = httpsProblem(name, value) { fail(condition, "OpenID Connect Discovery §3", problem, name) }
    }
    findings += JWKSRules.problems(in: jwks).filter { !$0.isAboutKeyIDs }.map { problem in
      ProtocolFinding(
        problem.condition, clause: "OpenID Connect Discovery §3", "the JWKS: \(problem.message)",
        severity: problem.isFailure ? .error : .warning, path: ["jwks"])
    }
    if let algorithms = strings(members["request_object_signing_alg_values_supported"]), !algorithms.contains("RS256") {
      fail(
        "CheckDiscEndpointRequestObjectSigningAlgValuesSupportedIncludesRS256", "OpenID Connect Discovery §3",
        "request_object_signing_alg_values_supported does not list RS256",
        "request_object_signing_alg_values_supported",
        warning: true)
    }
    if members["claims_supported"]?.arrayValue == nil {
      fail(
        "OIDCCCheckDiscEndpointClaimsSupported", "OpenID Connect Discovery §3",
        "claims_supported is \(members["claims_supported"] == nil ? "absent" : "not an array") (RECOMMENDED)",
        "claims_supported", warning: true)
    }
    if let value = members["grant_types_supported"], (value.arrayValue ?? []).isEmpty {
      fail(
        "OIDCCCheckDiscEndpointGrantTypesSupported", "OpenID Connect Discovery §3",
        "grant_types_supported is present but not a non-empty array", "grant_types_supported")
    }
    if let scopes = members["scopes_supported"] {
      if strings(scopes)?.contains("openid") != true {
        fail(
          "CheckDiscEndpointScopesSupportedContainsOpenId", "OpenID Connect Discovery §3",
          "scopes_supported does not list openid", "scopes_supported")
      }
      if strings(scopes)?.allSatisfy(isScopeToken) != true {
        fail(
          "CheckDiscEndpointScopesSupportedSyntax", "RFC 6749 §3.3",
          "scopes_supported is not an array of scope tokens (%x21 / %x23-5B / %x5D-7E)", "scopes_supported")
      }
    } else {
      fail(
        "CheckDiscEndpointScopesSupportedContainsOpenId", "OpenID Connect Discovery §3",
        "scopes_supported is absent (RECOMMENDED)", "scopes_supported", warning: true)
    }
    for name in ["ui_locales_supported", "claims_locales_supported"] {
      guard let value = members[name] else { continue }
      guard let tags = strings(value), tags.allSatisfy(isLanguageTag) else {
        fail("CheckDiscEndpointLocalesSyntax", "RFC 8414 §2", "\(name) is not an array of BCP 47 language tags", name)
        continue
      }
      if let odd = tags.first(where: { canonicalCasing($0) != $0 }) {
        fail(
          "CheckDiscEndpointLocalesCanonicalCasing", "RFC 8414 §2",
          "\(name) has '\(odd)', whose canonical casing is '\(canonicalCasing(odd))'", name, warning: true)
      }
    }
    if let (name, problem) = firstNonHTTPSEndpoint(members) {
      fail("CheckDiscEndpointAllEndpointsAreHttps", "OpenID Connect Discovery §3", problem, name)
    }
    if let value = members["code_challenge_methods_supported"], !(value.arrayValue ?? [.null]).isEmpty {
      let methods = strings(value) ?? []
      if !methods.contains("S256"), !methods.contains("plain") {
        fail(
          "EnsureServerConfigurationCodeChallengeMethodsSupportedIsAnArray", "RFC 8414 §2, RFC 7636 §4.3",
          "code_challenge_methods_supported is not an array listing S256 or plain", "code_challenge_methods_supported")
      }
    }
    return findings
  }

  // MARK: - Helpers

  static func url(_ value: Value?) -> String? {
    guard let text = value?.stringValue, let components = URLComponents(string: text), components.scheme != nil,
      !(components.host ?? "").isEmpty
    else { return nil }
    return text
  }

  static func strings(_ value: Value?) -> [String]? {
    guard let items = value?.arrayValue else { return nil }
    let texts = items.compactMap(\.stringValue)
    return texts.count == items.count ? texts : nil
  }

  static func arrayProblem(_ members: [String: Value], _ name: String) -> String? {
    guard let value = members[name] else { return "\(name) is absent" }
    return value.arrayValue == nil ? "\(name) is not an array" : nil
  }

  /// The first `*_endpoint` member, by name, that is not an https URL, with why
  /// (`CheckDiscEndpointAllEndpointsAreHttps` stops at the first).
  static func firstNonHTTPSEndpoint(_ members: [String: Value]) -> (String, String)? {
    for (name, value) in members.sorted(by: { $0.key < $1.key }) where name.hasSuffix("_endpoint") {
      if let problem = httpsProblem(name, value) { return (name, problem) }
    }
    return nil
  }

  static func httpsProblem(_ name: String, _ value: Value) -> String? {
    guard let text = value.stringValue else { return "\(name) is not a string holding a URL" }
    guard url(value) != nil, let scheme = URLComponents(string: text)?.scheme?.lowercased() else {
      return "\(name) (\(text)) is not a valid URL"
    }
    return scheme == "https" ? nil : "\(name) (\(text)) does not use the https scheme"
  }

  static func issuerURLProblem(_ issuer: String) -> String? {
    guard let components = URLComponents(string: issuer), let scheme = components.scheme else { return "not a URL" }
    if scheme.lowercased() != "https" { return "its scheme is \(scheme), not https" }
    if (components.host ?? "").isEmpty { return "it has no host" }
    if components.query != nil { return "it has a query" }
    if components.fragment != nil { return "it has a fragment" }
    if components.user != nil || components.password != nil { return "it has user information" }
    return nil
  }

  static func schemaProblem(_ name: String, _ value: Value) -> String? {
    if name == "issuer" || name.hasSuffix("_endpoint") || name.hasSuffix("_uri") {
      return value.stringValue == nil ? "\(name) is not a string (a URL)" : nil
    }
    if name.hasSuffix("_supported"), !booleanMembers.contains(name) {
      return strings(value) == nil ? "\(name) is not an array of strings" : nil
    }
    if booleanMembers.contains(name) { return value.boolValue == nil ? "\(name) is not a boolean" : nil }
    return nil
  }

  static func trimmingSlash(_ text: String) -> String {
    text.hasSuffix("/") ? String(text.dropLast()) : text
  }

  /// RFC 6749 §3.3 scope-token: one or more of %x21 / %x23-5B / %x5D-7E.
  static func isScopeToken(_ text: String) -> Bool {
    !text.isEmpty && text.unicodeScalars.allSatisfy(ErrorResponseRules.isURICharacter)
  }

  /// A well-formed BCP 47 language tag (RFC 5646 §2.1, its syntax; the IANA registry of subtags
  /// is not consulted).
  static func isLanguageTag(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard let language = parts.first, (2...8).contains(language.count), language.allSatisfy(\.isLetter) else {
      return false
    }
    return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber } }
  }

  /// A tag in its canonical casing: language lower case, a 4-letter script title case, a 2-letter
  /// region upper case (RFC 5646 §2.1.1).
  static func canonicalCasing(_ tag: String) -> String {
    tag.split(separator: "-").enumerated().map { index, part in
      let text = String(part)
      if index == 0 { return text.lowercased() }
      if text.count == 4, text.allSatisfy(\.isLetter) {
        return text.prefix(1).uppercased() + text.dropFirst().lowercased()
      }
      if text.count == 2, text.allSatisfy(\.isLetter) { return text.uppercased() }
      return text.lowercased()
    }.joined(separator: "-")
  }
}
