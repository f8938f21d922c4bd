public import AuthFlowCore
public import AuthFlowScenario
import Foundation

/// Stage 3, validated: the scenarios with their flow graphs, the tenant profiles, and every
/// problem found on the way. Nothing past this stage runs unless ``isValid``.
public struct ValidatedSuite: Sendable {
  /// The scenarios of the files without errors, each with its flow graph, in file order.
  public var scenarios: [ValidatedScenario]
  /// Every scenario that could be read, errors or not (for tag suggestions and counts).
  public var parsed: [Scenario]
  public var project: ProjectConfig
  /// Scenario, project and cross-checking diagnostics, in that order.
  public var diagnostics: [Diagnostic]
  /// The text of every file read, by path (for diagnostic snippets).
  public var sources: [String: String]

  public init(
    scenarios: [ValidatedScenario], parsed: [Scenario], project: ProjectConfig, diagnostics: [Diagnostic],
    sources: [String: String]
  ) {
    self.scenarios = scenarios
    self.parsed = parsed
    self.project = project
    self.diagnostics = diagnostics
    self.sources = sources
  }

  /// True when no diagnostic is an error.
  public var isValid: Bool { !diagnostics.hasErrors }

  /// Every instance of every scenario, in file order.
  public var instances: [ScenarioInstance] { scenarios.flatMap(\.instances) }

  /// Stage 4, bind the plan: the tenant profiles named (the project's default without names) and
  /// the instances the selection takes. A name no profile has is an error (exit 2).
  public func plan(tenants names: [String]?, selection: Selection) -> Result<RunPlan, RunPlan.UnknownTenant> {
    let tenantNames = names ?? [project.defaultTenantName]
    var profiles: [TenantProfile] = []
    for name in tenantNames {
      guard let profile = project.tenant(named: name) else {
        return .failure(RunPlan.UnknownTenant(name: name, known: project.tenants.map(\.name.value)))
      }
      profiles.append(profile)
    }
    let all = instances
    return .success(
      RunPlan(
        profiles: profiles, selection: selection, instances: selection.apply(to: all),
        unknownTags: selection.unknownTags(in: parsed), loadedCount: all.count,
        projectDirectory: project.file.isEmpty ? "." : (project.file as NSString).deletingLastPathComponent))
  }
}
