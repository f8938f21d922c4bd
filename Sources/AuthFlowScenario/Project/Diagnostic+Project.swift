import AuthFlowCore
import AuthFlowYAML

// Messages about `authflow.yaml`.
extension Diagnostic {
  static func unknownTenant(_ name: Located<String>, hint: String?) -> Diagnostic {
    .error(
      "default_tenant '\(name.value)' is not one of the tenants", at: name.location, length: name.value.count,
      hint: hint ?? "add it under 'tenants:', or name one that is there")
  }

  static func missingTenantKind(_ name: Located<String>) -> Diagnostic {
    .error(
      "tenant '\(name.value)' has no 'kind'", at: name.location, length: name.value.count,
      hint: "add 'kind: mock', 'kind: auth0' or 'kind: oidc'")
  }

  static func unknownTenantKind(_ kind: Located<String>) -> Diagnostic {
    let kinds = TenantProfile.Kind.allCases.map(\.rawValue)
    return .error(
      "unknown tenant kind '\(kind.value)'", at: kind.location, length: max(1, kind.value.count),
      hint: Suggestion.hint(for: kind.value, in: kinds) ?? "use one of "
        + kinds.map { "'\($0)'" }.joined(separator: ", "))
  }

  static func unknownBrowserEngine(_ engine: Located<String>) -> Diagnostic {
    let engines = BrowserEngine.allCases.map(\.rawValue)
    return .error(
      "unknown browser '\(engine.value)'", at: engine.location, length: max(1, engine.value.count),
      hint: Suggestion.hint(for: engine.value, in: engines) ?? "use one of "
        + engines.map { "'\($0)'" }.joined(separator: ", "))
  }

  static func missingTenantSetting(_ key: String, tenant: Located<String>, kind: TenantProfile.Kind) -> Diagnostic {
    let example = key == "domain" ? "domain: ${{ env.AUTH0_DOMAIN }}" : "issuer: https://idp.example.com"
    return .error(
      "tenant '\(tenant.value)' of kind '\(kind.rawValue)' needs '\(key)'", at: tenant.location,
      length: tenant.value.count, hint: "add '\(example)'")
  }

  static func ignoredTenantSetting(_ key: String, kind: TenantProfile.Kind, at location: SourceLocation) -> Diagnostic {
    Diagnostic(
      .warning, "'\(key)' is not used by a tenant of kind '\(kind.rawValue)'", at: location, length: key.count,
      hint: "remove it, or change 'kind'")
  }

  static func unknownClientAuthenticationMethod(
    _ value: Value, at location: SourceLocation, client: String
  ) -> Diagnostic {
    let methods = ClientAuthenticationMethod.allCases.map(\.rawValue)
    let text = value.stringValue ?? value.display()
    return .error(
      "client '\(client)' has token_endpoint_auth_method '\(text)', which authflow cannot send", at: location,
      length: max(1, text.count),
      hint: Suggestion.hint(for: text, in: methods)
        ?? "use one of \(methods.joined(separator: ", ")), or leave it out for the default (docs/tenants.md#client-authentication)"
    )
  }

  static func missingClientID(_ client: Located<String>, tenant: String) -> Diagnostic {
    .error(
      "client '\(client.value)' of tenant '\(tenant)' has no 'client_id'", at: client.location,
      length: client.value.count, hint: "add 'client_id: ${{ env.…_CLIENT_ID }}'")
  }
}

// Messages about capability names (`requires:`, `capabilities:`, `custom_capabilities:`).
extension Diagnostic {
  static func unknownCapability(_ name: Located<String>, hint: String?) -> Diagnostic {
    .error(
      "unknown capability '\(name.value)'", at: name.location, length: max(1, name.value.count),
      hint: hint
        ?? "use a capability of the vocabulary (docs/tenants.md), or declare it under a tenant's 'custom_capabilities:' in authflow.yaml"
    )
  }

  static func customCapabilityIsBuiltIn(_ name: Located<String>) -> Diagnostic {
    Diagnostic(
      .warning, "'\(name.value)' is a built-in capability; it need not be declared", at: name.location,
      length: name.value.count, hint: "list it under 'capabilities:' instead")
  }
}
