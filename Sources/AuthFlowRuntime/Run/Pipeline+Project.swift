public import AuthFlowCore
import AuthFlowMockTenant
public import AuthFlowScenario
import Foundation

extension Pipeline {
  /// The checks of scenarios against `authflow.yaml` (``ProjectConfig/check(_:clients:)``): a
  /// pinned tenant that does not exist, a `requires` outside the capability vocabulary, a
  /// `client:` no tenant defines. `validate` and `run` both make them, so a typo is an error
  /// before anything runs instead of a silent skip.
  public static func check(_ scenarios: [Scenario], against project: ProjectConfig) -> [Diagnostic] {
    let clients = clientNames(of: project)
    return scenarios.flatMap { project.check($0, clients: clients) }
  }

  /// The client profile names each tenant offers: `clients:`, and for a mock tenant its
  /// fixture's clients too. Nil for a mock whose fixture path is an expression or cannot be read
  /// (its own diagnostics come when it starts).
  static func clientNames(of project: ProjectConfig) -> [String: Set<String>?] {
    let directory = project.file.isEmpty ? "." : (project.file as NSString).deletingLastPathComponent
    var names: [String: Set<String>?] = [:]
    for tenant in project.tenants {
      let own = Set(tenant.clients.map(\.name.value))
      guard tenant.kind == .mock else {
        names[tenant.name.value] = own
        continue
      }
      let loaded: FixtureLoader.Result
      switch tenant.fixture {
      case nil:
        loaded = FixtureLoader.loadDefault()
      case let fixture?:
        guard let path = fixture.literalValue?.stringValue else {
          names[tenant.name.value] = .some(nil)
          continue
        }
        loaded = FixtureLoader.load(
          path: path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path))
      }
      guard let fixture = loaded.fixture else {
        names[tenant.name.value] = .some(nil)
        continue
      }
      names[tenant.name.value] = own.union(fixture.clients.keys)
    }
    return names
  }
}
