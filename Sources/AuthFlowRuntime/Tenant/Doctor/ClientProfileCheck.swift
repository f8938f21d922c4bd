import AuthFlowCore
import AuthFlowScenario
import Foundation

/// The doctor's checks of one client profile: a `client_id`, a usable `redirect_uri` (unless the
/// client is machine-to-machine), grant types the provider supports, a secret for a confidential
/// client, and an authentication method the token endpoint accepts. The secret is only reported
/// as set or missing.
struct ClientProfileCheck {
  var name: String
  var client: ClientProfile
  var tenant: TenantContext
  var metadata: ProviderMetadata?

  /// Client types (Auth0 application types and OAuth's own word) that hold a secret.
  static let confidentialTypes: Set<String> = ["regular", "regular_web", "m2m", "non_interactive", "confidential"]
  static let machineTypes: Set<String> = ["m2m", "non_interactive"]
  /// Grants that go through the browser, so need a `redirect_uri`.
  static let browserGrants: Set<String> = ["authorization_code", "implicit"]

  func checks() -> [DoctorReport.Check] {
    var problems: [(String, String)] = []
    var facts: [String] = []
    let type = client.type
    let grants = client.grantTypes ?? []
    if let clientID = client.clientID {
      facts.append("client_id \(clientID)")
    } else {
      problems.append(("no client_id", "set `client_id` of client '\(name)' in the tenant profile"))
    }
    let machine = type.map(Self.machineTypes.contains) ?? false || (!grants.isEmpty && grants == ["client_credentials"])
    if let redirect = client.redirectURI {
      if Self.isAbsolute(redirect) {
        facts.append("redirect_uri \(redirect)")
      } else {
        problems.append(
          (
            "redirect_uri '\(redirect)' is not an absolute URI",
            "give a full URI with a scheme, e.g. https://app.example.com/callback"
          ))
      }
    } else if grants.isEmpty ? !machine : grants.contains(where: Self.browserGrants.contains) {
      problems.append(
        (
          "no redirect_uri: web_auth and logout cannot run with this client",
          "set `redirect_uri` to a callback the provider allows"
        ))
    }
    problems += grantProblems(grants)
    let method = client.tokenEndpointAuthMethod
    let confidential =
      type.map(Self.confidentialTypes.contains) ?? false || method == "client_secret_post"
      || method == "client_secret_basic"
    let hasSecret = client.clientSecret != nil
    if confidential && !hasSecret {
      problems.append(
        ("a confidential client without client_secret", "set `client_secret` (e.g. \"${{ env.CLIENT_SECRET }}\")"))
    }
    if hasSecret { facts.append("client_secret set") }
    if let method, ClientAuthenticationMethod(rawValue: method) == nil {
      // A value from `${{ env.… }}` is known only now; a literal one is refused by the parser.
      let methods = ClientAuthenticationMethod.allCases.map(\.rawValue).joined(separator: ", ")
      problems.append(
        (
          "token_endpoint_auth_method '\(method)' is not one authflow can send",
          "set `token_endpoint_auth_method` of client '\(name)' to one of \(methods)"
        ))
    }
    if hasSecret || method != nil {
      // The decision the runtime applies (`OAuthRequest`), reported with its reason.
      let resolved = ClientAuthentication.resolve(client: client, kind: tenant.kind, provider: metadata)
      let methodName = resolved.method.rawValue
      if let supported = resolved.supported, resolved.method != .none, !supported.contains(methodName) {
        if resolved.listedByProvider {
          problems.append(
            (
              "token endpoint authentication \(methodName) is not in token_endpoint_auth_methods_supported (\(supported.joined(separator: ", ")))",
              "set `token_endpoint_auth_method` of client '\(name)' to one of them"
            ))
        } else {
          facts.append(
            "authenticates with \(methodName) (\(resolved.reason); discovery omits token_endpoint_auth_methods_supported, whose OpenID default is client_secret_basic)"
          )
        }
      } else {
        facts.append("authenticates with \(methodName) (\(resolved.reason))")
      }
    }
    if !grants.isEmpty { facts.append("grants \(grants.joined(separator: ", "))") }
    if problems.isEmpty { return [.init(.clients, .passed, "\(name): \(facts.joined(separator: "; "))")] }
    return problems.map { problem, fix in .init(.clients, .failed, "\(name): \(problem)", fix: fix) }
  }

  private func grantProblems(_ grants: [String]) -> [(String, String)] {
    guard let metadata else { return [] }
    let supported = metadata.effectiveGrantTypes
    let listed = metadata.grantTypesSupported == nil ? "the OpenID default grant types" : "grant_types_supported"
    return grants.compactMap { grant in
      if supported.contains(grant) { return nil }
      // A grant the profile declares as a capability (discovery documents often omit grant_types_supported).
      if tenant.capabilities.contains(grant) { return nil }
      // Auth0's legacy grants (docs/protocol.md §10) are per-app settings no discovery document lists.
      if grant.hasPrefix("http://auth0.com/oauth/legacy/grant-type/") { return nil }
      return (
        "grant type \(grant) is not in \(listed) (\(supported.joined(separator: ", ")))",
        "remove it from client '\(name)' or enable it on the provider"
      )
    }
  }

  /// A URI with a scheme; for http(s), with a host too.
  static func isAbsolute(_ text: String) -> Bool {
    guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return false }
    if scheme == "http" || scheme == "https" { return !(url.host ?? "").isEmpty }
    return true
  }
}
