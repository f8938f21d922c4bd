import Foundation

extension RunReport {
  /// `Login works [tenant: mock]`: how a comparison run names a scenario instance, in the style of
  /// matrix instance names, so that JUnit test cases, JSON entries and console lines stay unique.
  public static func label(_ name: String, tenant: String) -> String { "\(name) [tenant: \(tenant)]" }

  /// The runs of a comparison as one report: every scenario labelled with its tenant (name suffix
  /// and ``ScenarioReport/tenant``), tenant names joined with commas, durations added (the tenants
  /// ran one after another). The exit code is then the worst of the runs.
  public static func combining(_ runs: [RunReport]) -> RunReport {
    guard runs.count != 1, let first = runs.first else { return runs.first ?? .empty }
    return RunReport(
      tenant: runs.map(\.tenant).joined(separator: ","), startedAt: first.startedAt,
      duration: runs.reduce(.zero) { $0 + $1.duration },
      scenarios: .concatenating(
        runs.map { run in
          let tenant = run.tenant
          return run.scenarios.mapping { $0.labelled(tenant: tenant) }
        }),
      interrupted: runs.contains(where: \.interrupted), stopCause: runs.lazy.compactMap(\.stopCause).first)
  }

  static let empty = RunReport(
    tenant: "", startedAt: Date(), duration: .zero, scenarios: [ScenarioReport](), interrupted: false)
}

extension ScenarioReport {
  /// The scenario as a comparison run names it: labelled with `tenant` (``RunReport/label(_:tenant:)``).
  public func labelled(tenant: String) -> ScenarioReport {
    var copy = self
    copy.name = RunReport.label(name, tenant: tenant)
    copy.tenant = tenant
    return copy
  }
}
