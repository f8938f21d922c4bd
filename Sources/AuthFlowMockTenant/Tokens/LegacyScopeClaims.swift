extension MockTenant {
  /// Whether attribute-name scopes (`name`, `picture`, …) become claims for this client: the
  /// client's `legacy_scope_claims` when set, else the tenant's (docs/protocol.md §10). Per client so one
  /// legacy client can coexist with OIDC-conformant ones while scenarios run concurrently.
  func legacyScopeClaims(clientID: String?) -> Bool {
    clientID.flatMap { fixture.client(id: $0)?.legacyScopeClaims } ?? fixture.settings.legacyScopeClaims
  }
}
