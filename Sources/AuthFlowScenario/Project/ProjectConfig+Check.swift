public import AuthFlowCore

extension ProjectConfig {
  /// The scenario's `tenant:` must be a tenant of this configuration, and its `client:` a client
  /// of that tenant when the tenant lists clients (a mock tenant without `clients` takes them from
  /// its fixture, so it is not checked).
  public func check(_ scenario: Scenario) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var tenant: TenantProfile?
    if let name = scenario.tenant {
      tenant = self.tenant(named: name.value)
      if tenant == nil {
        diagnostics.append(
          .unknownScenarioTenant(name, hint: Suggestion.hint(for: name.value, in: tenants.map(\.name.value))))
      }
    }
    if let client = scenario.client, let tenant, !tenant.clients.isEmpty, tenant.client(named: client.value) == nil {
      diagnostics.append(
        .unknownScenarioClient(
          client, tenant: tenant.name.value,
          hint: Suggestion.hint(for: client.value, in: tenant.clients.map(\.name.value))))
    }
    return diagnostics
  }
}

extension Diagnostic {
  static func unknownScenarioTenant(_ name: Located<String>, hint: String?) -> Diagnostic {
    .error(
      "tenant '\(name.value)' is not defined in authflow.yaml", at: name.location, length: name.value.count,
      hint: hint ?? "add it under 'tenants:' in authflow.yaml")
  }

  static func unknownScenarioClient(_ name: Located<String>, tenant: String, hint: String?) -> Diagnostic {
    .error(
      "tenant '\(tenant)' has no client '\(name.value)'", at: name.location, length: name.value.count,
      hint: hint ?? "add it under the tenant's 'clients:' in authflow.yaml")
  }
}
