public import AuthFlowCore
public import AuthFlowScenario
import Foundation

extension Pipeline {
  /// The checks of scenarios against `authflow.yaml` (``ProjectConfig/check(_:clients:)``): a
  /// pinned tenant that does not exist, a `requires` outside the capability vocabulary, a
  /// `client:` no tenant defines, a `tenant.users.NAME` or `tenant.clients.NAME` no tenant
  /// defines. `validate` and `run` both make them, so a typo is an error before anything runs
  /// instead of a silent skip or a `null`. A mock tenant's fixture profiles are read through
  /// `embedded`; without one, its profiles are not checked.
  public static func check(
    _ scenarios: [Scenario], against project: ProjectConfig, embedded: (any EmbeddedTenantHost)?
  ) -> [Diagnostic] {
    let names = profileNames(of: project, embedded: embedded)
    return scenarios.flatMap {
      project.check($0, clients: names.clients, users: names.users, fields: names.fields)
    }
  }

  /// The client and user profile names each tenant offers: `clients:` and `users:`, and for a
  /// mock tenant its fixture's too. Nil for a mock whose fixture path is an expression or cannot
  /// be read (its own diagnostics come when it starts).
  static func profileNames(
    of project: ProjectConfig, embedded: (any EmbeddedTenantHost)?
  ) -> (clients: [String: Set<String>?], users: [String: Set<String>?], fields: ProfileFields) {
    let directory = project.file.isEmpty ? "." : (project.file as NSString).deletingLastPathComponent
    var clients: [String: Set<String>?] = [:]
    var users: [String: Set<String>?] = [:]
    // Only a mock's fixture adds fields to those written in authflow.yaml.
    var fields = ProfileFields()
    for tenant in project.tenants {
      let ownClients = Set(tenant.clients.map(\.name.value))
      let ownUsers = Set(tenant.users.map(\.name.value))
      guard tenant.kind == .mock else {
        clients[tenant.name.value] = ownClients
        users[tenant.name.value] = ownUsers
        continue
      }
      let path: String?
      switch tenant.fixture {
      case nil:
        path = nil
      case let fixture?:
        guard let literal = fixture.literalValue?.stringValue else {
          clients[tenant.name.value] = .some(nil)
          users[tenant.name.value] = .some(nil)
          fields.clients[tenant.name.value] = .some(nil)
          fields.users[tenant.name.value] = .some(nil)
          continue
        }
        path = literal.hasPrefix("/") ? literal : (directory as NSString).appendingPathComponent(literal)
      }
      guard let fixture = embedded?.profileNames(fixturePath: path) else {
        clients[tenant.name.value] = .some(nil)
        users[tenant.name.value] = .some(nil)
        fields.clients[tenant.name.value] = .some(nil)
        fields.users[tenant.name.value] = .some(nil)
        continue
      }
      clients[tenant.name.value] = ownClients.union(fixture.clients)
      users[tenant.name.value] = ownUsers.union(fixture.users)
      fields.clients[tenant.name.value] = fixture.clientFields
      fields.users[tenant.name.value] = fixture.userFields
    }
    return (clients, users, fields)
  }
}
