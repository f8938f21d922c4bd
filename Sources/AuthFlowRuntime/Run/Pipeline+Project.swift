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
    let profiles = profiles(of: project, embedded: embedded)
    return scenarios.flatMap { project.check($0, profiles: profiles, catalog: ActionRegistry.catalog) }
  }

  /// Each tenant's client and user profiles, by name and field: those of `authflow.yaml`, and
  /// for a mock tenant its fixture's too. Nil for a mock whose fixture path is an expression or
  /// cannot be read (its own diagnostics come when it starts).
  static func profiles(
    of project: ProjectConfig, embedded: (any EmbeddedTenantHost)?
  ) -> [String: ProfileNames?] {
    let directory = project.file.isEmpty ? "." : (project.file as NSString).deletingLastPathComponent
    var profiles: [String: ProfileNames?] = [:]
    for tenant in project.tenants {
      let own = tenant.ownProfiles
      guard tenant.kind == .mock else {
        profiles[tenant.name.value] = own
        continue
      }
      var path: String?
      if let fixture = tenant.fixture {
        guard let literal = fixture.literalValue?.stringValue else {
          profiles[tenant.name.value] = .some(nil)
          continue
        }
        path = literal.hasPrefix("/") ? literal : (directory as NSString).appendingPathComponent(literal)
      }
      profiles[tenant.name.value] = .some(embedded?.profileNames(fixturePath: path).map(own.union))
    }
    return profiles
  }
}
