/// The client and user profiles of a tenant as scenarios read them — `client:`,
/// `tenant.clients.NAME.FIELD`, `tenant.users.NAME.FIELD` — by name and by field: those written in
/// `authflow.yaml` (``TenantProfile/ownProfiles``), and for a mock tenant its fixture's too.
public struct ProfileNames: Sendable, Equatable {
  public var clients: Set<String>
  public var users: Set<String>
  /// Every field some client profile has (`client_id`, `redirect_uri`, …).
  public var clientFields: Set<String>
  /// Every field some user profile has (`email`, `password`, …).
  public var userFields: Set<String>

  public init(
    clients: Set<String>, users: Set<String>, clientFields: Set<String> = [], userFields: Set<String> = []
  ) {
    self.clients = clients
    self.users = users
    self.clientFields = clientFields
    self.userFields = userFields
  }

  /// The profile names of one kind.
  public func names(_ kind: TenantProfileReference.Kind) -> Set<String> { kind == .user ? users : clients }

  /// The fields of one kind.
  public func fields(_ kind: TenantProfileReference.Kind) -> Set<String> {
    kind == .user ? userFields : clientFields
  }

  /// Both tenants' profiles together (a mock's `authflow.yaml` profiles and its fixture's).
  public func union(_ other: ProfileNames) -> ProfileNames {
    ProfileNames(
      clients: clients.union(other.clients), users: users.union(other.users),
      clientFields: clientFields.union(other.clientFields), userFields: userFields.union(other.userFields))
  }
}

extension TenantProfile {
  /// The profiles written under `clients:` and `users:` (each a mapping: the parser refuses
  /// anything else), with their keys as fields.
  public var ownProfiles: ProfileNames {
    func keys(_ bindings: [Binding]) -> Set<String> {
      bindings.reduce(into: []) { fields, binding in
        if case .object(let members, _) = binding.value { fields.formUnion(members.map(\.key.value)) }
      }
    }
    return ProfileNames(
      clients: Set(clients.map(\.name.value)), users: Set(users.map(\.name.value)), clientFields: keys(clients),
      userFields: keys(users))
  }
}
