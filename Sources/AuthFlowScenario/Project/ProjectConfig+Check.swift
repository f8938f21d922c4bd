public import AuthFlowCore
import AuthFlowYAML

extension ProjectConfig {
  /// What the scenario names of the project must exist: its `tenant:` a tenant of this
  /// configuration, each `requires` a capability of the vocabulary (``capabilityNames``), and its
  /// `client:` (the scenario's and each step's) a client profile of the tenant it is pinned to,
  /// else of at least one tenant.
  ///
  /// `clients` gives the client profile names each tenant offers, by tenant name (a mock
  /// tenant's come from its fixture as well as from `clients:`); a tenant missing from it offers
  /// only its `clients:`, and a tenant mapped to nil (a fixture path known only at run time) may
  /// offer any, so a client is not checked against it. `users` does the same for the user
  /// profiles that `tenant.users.NAME` reads, as `clients` does for `tenant.clients.NAME`.
  public func check(
    _ scenario: Scenario, clients: [String: Set<String>?] = [:], users: [String: Set<String>?] = [:],
    fields: ProfileFields = ProfileFields()
  ) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
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
    for client in named where scenario.tenant == nil || pinned != nil {
      let candidates = (pinned.map { [$0] } ?? tenants).map { tenant in
        clients[tenant.name.value] ?? Set(tenant.clients.map(\.name.value))
      }
      if !candidates.contains(nil) {
        let known = candidates.reduce(into: Set<String>()) { $0.formUnion($1 ?? []) }
        if !known.contains(client.value) {
          let hint = Suggestion.hint(for: client.value, in: known.sorted())
          if let pinned {
            diagnostics.append(.unknownScenarioClient(client, tenant: pinned.name.value, hint: hint))
          } else {
            diagnostics.append(.unknownClientProfile(client, known: known.sorted(), hint: hint))
          }
        }
      }
    }
    if scenario.tenant == nil || pinned != nil {
      diagnostics += checkProfileReferences(
        scenario, pinned: pinned, clients: clients, users: users, fields: fields)
    }
    return diagnostics
  }

  /// `tenant.users.NAME` and `tenant.clients.NAME` must name a profile of the pinned tenant, else
  /// of at least one tenant (a tenant without it skips the scenario when it runs).
  private func checkProfileReferences(
    _ scenario: Scenario, pinned: TenantProfile?, clients: [String: Set<String>?], users: [String: Set<String>?],
    fields: ProfileFields
  ) -> [Diagnostic] {
    let references = scenario.tenantProfileReferences
    guard !references.isEmpty else { return [] }
    let candidates = pinned.map { [$0] } ?? tenants
    func known(_ kind: TenantProfileReference.Kind) -> Set<String>? {
      var known: Set<String> = []
      for tenant in candidates {
        let declared = kind == .user ? tenant.users : tenant.clients
        let offered = (kind == .user ? users : clients)[tenant.name.value] ?? Set(declared.map(\.name.value))
        guard let offered else { return nil }
        known.formUnion(offered)
      }
      return known
    }
    /// The fields any profile of the kind has, on any candidate; nil when one of them is unknown.
    func knownFields(_ kind: TenantProfileReference.Kind) -> Set<String>? {
      var known: Set<String> = []
      for tenant in candidates {
        let declared = kind == .user ? tenant.users : tenant.clients
        let own = ProfileFields.fields(of: declared)
        guard let own, let offered = (kind == .user ? fields.users : fields.clients)[tenant.name.value] ?? own else {
          return nil
        }
        known.formUnion(own.union(offered))
      }
      return known
    }
    // Membership first, without building the unions: the sets are made for a message only.
    func offers(_ kind: TenantProfileReference.Kind, _ name: String) -> Bool {
      for tenant in candidates {
        let declared = kind == .user ? tenant.users : tenant.clients
        switch (kind == .user ? users : clients)[tenant.name.value] {
        case .some(nil): return true  // known only when the tenant starts
        case .some(let offered?): if offered.contains(name) { return true }
        case nil: if declared.contains(where: { $0.name.value == name }) { return true }
        }
      }
      return false
    }
    func hasField(_ kind: TenantProfileReference.Kind, _ field: String) -> Bool {
      for tenant in candidates {
        switch (kind == .user ? fields.users : fields.clients)[tenant.name.value] {
        case .some(nil): return true
        case .some(let offered?): if offered.contains(field) { return true }
        case nil: break
        }
        for binding in kind == .user ? tenant.users : tenant.clients {
          guard case .object(let members, _) = binding.value else { return true }
          if members.contains(where: { $0.key.value == field }) { return true }
        }
      }
      return false
    }
    var diagnostics: [Diagnostic] = []
    for reference in references {
      if let field = reference.field, !hasField(reference.kind, field), let known = knownFields(reference.kind) {
        diagnostics.append(
          .unknownProfileField(
            field, of: reference, known: known.sorted(), hint: Suggestion.hint(for: field, in: known.sorted())))
        continue
      }
      guard !offers(reference.kind, reference.name), let names = known(reference.kind) else { continue }
      diagnostics.append(
        .unknownProfileReference(
          reference, tenant: pinned?.name.value, known: names.sorted(),
          hint: Suggestion.hint(for: reference.name, in: names.sorted())))
    }
    return diagnostics
  }
}

/// The fields the user and client profiles of each tenant have, beyond those written in
/// `authflow.yaml` (a mock tenant's fixture profiles), by tenant name; nil for a tenant whose
/// profiles are not known before it starts.
public struct ProfileFields: Sendable {
  public var users: [String: Set<String>?]
  public var clients: [String: Set<String>?]

  public init(users: [String: Set<String>?] = [:], clients: [String: Set<String>?] = [:]) {
    self.users = users
    self.clients = clients
  }

  /// The keys of profiles written as mappings; nil when one is a whole expression (its fields are
  /// known only when the tenant is used).
  static func fields(of bindings: [Binding]) -> Set<String>? {
    var fields: Set<String> = []
    for binding in bindings {
      guard case .object(let members, _) = binding.value else { return nil }
      fields.formUnion(members.map(\.key.value))
    }
    return fields
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
