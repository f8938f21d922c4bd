public import AuthFlowCore
public import AuthFlowScenario
import Foundation

extension Pipeline {
  /// The checks of scenarios against `authflow.yaml` (``ProjectConfig/check(_:clients:)``): a
  /// pinned tenant that does not exist, a `requires` outside the capability vocabulary, a
  /// `client:` no tenant defines. `validate` and `run` both make them, so a typo is an error
  /// before anything runs instead of a silent skip. A mock tenant's fixture clients are read
  /// through `embedded`; without one, its clients are not checked.
  public static func check(
    _ scenarios: [Scenario], against project: ProjectConfig, embedded: (any EmbeddedTenantHost)?
  ) -> [Diagnostic] {
    let clients = clientNames(of: project, embedded: embedded)
    return scenarios.flatMap { project.check($0, clients: clients) }
  }

  /// The client profile names each tenant offers: `clients:`, and for a mock tenant its
  /// fixture's clients too. Nil for a mock whose fixture path is an expression or cannot be read
  /// (its own diagnostics come when it starts).
  static func clientNames(
    of project: ProjectConfig, embedded: (any EmbeddedTenantHost)?
  ) -> [String: Set<String>?] {
    let directory = project.file.isEmpty ? "." : (project.file as NSString).deletingLastPathComponent
    var names: [String: Set<String>?] = [:]
    for tenant in project.tenants {
      let own = Set(tenant.clients.map(\.name.value))
      guard tenant.kind == .mock else {
        names[tenant.name.value] = own
        continue
      }
      let path: String?
      switch tenant.fixture {
      case nil:
        path = nil
      case let fixture?:
        guard let literal = fixture.literalValue?.stringValue else {
          names[tenant.name.value] = .some(nil)
          continue
        }
        path = literal.hasPrefix("/") ? literal : (directory as NSString).appendingPathComponent(literal)
      }
      guard let fixtureClients = embedded?.clientNames(fixturePath: path) else {
        names[tenant.name.value] = .some(nil)
        continue
      }
      names[tenant.name.value] = own.union(fixtureClients)
    }
    return names
  }
}
