public import AuthFlowCore
import AuthFlowYAML

extension ProjectConfig {
  /// What the scenario names of the project must exist: its `tenant:` a tenant of this
  /// configuration, each `requires` a capability of the vocabulary (``capabilityNames``), and its
  /// `client:` (the scenario's and each step's) a client profile of the tenant it is pinned to,
  /// else of at least one tenant.
  ///
  /// `profiles` gives each tenant's profiles by tenant name (``ProfileNames``: a mock tenant's
  /// fixture profiles as well as its `authflow.yaml` ones); a tenant missing from it has only its
  /// own (``TenantProfile/ownProfiles``), and a tenant mapped to nil (a fixture path known only at
  /// run time) may have any, so nothing is checked against it. The same catalog checks `client:`,
  /// `tenant.clients.NAME` and `tenant.users.NAME`, and the fields they read.
  /// With `catalog`, a step's login-form values are checked too (``checkLoginValues(_:catalog:)``).
  public func check(
    _ scenario: Scenario, profiles: [String: ProfileNames?] = [:], catalog: ActionCatalog? = nil
  ) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = catalog.map { checkLoginValues(scenario, catalog: $0) } ?? []
    var pinned: TenantProfile?
    if let name = scenario.tenant {
      pinned = self.tenant(named: name.value)
      if pinned == nil {
        diagnostics.append(
          .unknownScenarioTenant(name, hint: Suggestion.hint(for: name.value, in: tenants.map(\.name.value))))
      }
    }
    let capabilities = capabilityNames
    for name in scenario.requires where !capabilities.contains(name.value) {
      diagnostics.append(.unknownCapability(name, hint: Suggestion.hint(for: name.value, in: capabilities.sorted())))
    }
    let named = [scenario.client].compactMap { $0 } + (scenario.steps + scenario.cleanup).compactMap(\.client)
    let offered = scenario.tenant == nil || pinned != nil ? self.profiles(of: pinned, in: profiles) : nil
    for client in named {
      guard let offered, !offered.contains(where: { $0.clients.contains(client.value) }) else { continue }
      let known = offered.reduce(into: Set<String>()) { $0.formUnion($1.clients) }.sorted()
      let hint = Suggestion.hint(for: client.value, in: known)
      if let pinned {
        diagnostics.append(.unknownScenarioClient(client, tenant: pinned.name.value, hint: hint))
      } else {
        diagnostics.append(.unknownClientProfile(client, known: known, hint: hint))
      }
    }
    if let offered {
      diagnostics += checkProfileReferences(scenario, pinned: pinned, offered: offered)
    }
    return diagnostics
  }

  /// The profiles of the tenants a scenario may run on — the pinned one, else every tenant —
  /// from the catalog, else written in this file; nil when one of them is known only at run time.
  private func profiles(of pinned: TenantProfile?, in catalog: [String: ProfileNames?]) -> [ProfileNames]? {
    var offered: [ProfileNames] = []
    for tenant in pinned.map({ [$0] }) ?? tenants {
      switch catalog[tenant.name.value] {
      case .some(nil): return nil
      case .some(let profiles?): offered.append(profiles)
      case nil: offered.append(tenant.ownProfiles)
      }
    }
    return offered
  }

  /// `tenant.users.NAME` and `tenant.clients.NAME` must name a profile of the pinned tenant, else
  /// of at least one tenant (a tenant without it skips the scenario when it runs), and a field
  /// they read must be one some such profile has. Membership is tested first; the unions are
  /// made for a message only.
  private func checkProfileReferences(
    _ scenario: Scenario, pinned: TenantProfile?, offered: [ProfileNames]
  ) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for reference in scenario.tenantProfileReferences {
      let kind = reference.kind
      if let field = reference.field, !offered.contains(where: { $0.fields(kind).contains(field) }) {
        let known = offered.reduce(into: Set<String>()) { $0.formUnion($1.fields(kind)) }.sorted()
        diagnostics.append(
          .unknownProfileField(field, of: reference, known: known, hint: Suggestion.hint(for: field, in: known)))
      } else if !offered.contains(where: { $0.names(kind).contains(reference.name) }) {
        let known = offered.reduce(into: Set<String>()) { $0.formUnion($1.names(kind)) }.sorted()
        diagnostics.append(
          .unknownProfileReference(
            reference, tenant: pinned?.name.value, known: known, hint: Suggestion.hint(for: reference.name, in: known)))
      }
    }
    return diagnostics
  }
}

extension Diagnostic {
  static func unknownProfileField(
    _ field: String, of reference: TenantProfileReference, known: [String], hint: String?
  ) -> Diagnostic {
    let what = reference.kind == .user ? "user" : "client"
    return .error(
      "no \(what) profile has a field '\(field)' (fields: \(known.joined(separator: ", ")))",
      at: reference.location, length: reference.length,
      hint: hint ?? "a field no profile has would read as null; add it to the profile in authflow.yaml")
  }

  static func unknownProfileReference(
    _ reference: TenantProfileReference, tenant: String?, known: [String], hint: String?
  ) -> Diagnostic {
    let what = reference.kind == .user ? "user" : "client profile"
    let list = known.isEmpty ? "none" : known.joined(separator: ", ")
    let message =
      tenant.map { "tenant '\($0)' has no \(what) '\(reference.name)' (it has: \(list))" }
      ?? "no tenant defines a \(what) '\(reference.name)' (known: \(list))"
    return .error(
      message, at: reference.location, length: reference.length,
      hint: hint
        ?? "add it under a tenant's '\(reference.kind.rawValue):' in authflow.yaml; a missing profile would read as null"
    )
  }

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

  static func unknownClientProfile(_ name: Located<String>, known: [String], hint: String?) -> Diagnostic {
    let list = known.isEmpty ? "none" : known.joined(separator: ", ")
    return .error(
      "no tenant defines a client profile '\(name.value)' (known: \(list))", at: name.location,
      length: name.value.count, hint: hint ?? "add it under a tenant's 'clients:' in authflow.yaml")
  }
}
