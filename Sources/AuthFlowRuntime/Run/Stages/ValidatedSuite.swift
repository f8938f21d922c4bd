public import AuthFlowCore
public import AuthFlowScenario
import Foundation

/// Stage 3, validated: the scenarios with their flow graphs, the tenant profiles, and every
/// problem found on the way. Nothing past this stage runs unless ``isValid``.
public struct ValidatedSuite: Sendable {
  /// The scenarios of the files without errors, each with its flow graph, in file order; empty
  /// when the suite was loaded without keeping them (``ScenarioSource/planned(embedded:)``).
  public var scenarios: [ValidatedScenario]
  /// Every scenario that could be read, errors or not; empty when not kept.
  public var parsed: [Scenario]
  /// Every instance of every valid scenario, in file order, as a plan's index entries (packed
  /// when the suite was loaded without keeping its scenarios).
  public var planned: PlannedInstances
  /// The tags of every scenario that could be read (for `--tag` suggestions).
  public var knownTags: Set<String>
  public var project: ProjectConfig
  /// Scenario, project and cross-checking diagnostics, in that order.
  public var diagnostics: [Diagnostic]
  /// The text of the files read, by path (for diagnostic snippets); without the scenarios kept,
  /// only of the files with diagnostics (the others are read again if a snippet needs them).
  public var sources: [String: String]
  /// Every valid scenario's `env.NAME` reads that do not cope with the variable's absence, in
  /// file order (few: most scenarios read the environment through the tenant profile). The plan
  /// keeps those of the scenarios it selects; ``BoundRun/unsetEnvironment(in:chromium:)`` judges them.
  public var environmentReads: [EnvironmentRead]

  /// A suite that keeps its scenarios: the plan holds every instance.
  public init(
    scenarios: [ValidatedScenario], parsed: [Scenario], project: ProjectConfig, diagnostics: [Diagnostic],
    sources: [String: String]
  ) {
    self.init(
      planned: PlannedInstances(scenarios.flatMap(\.instances).map { PlannedInstance($0) }),
      knownTags: Set(parsed.flatMap { $0.tags.map(\.value) }), project: project, diagnostics: diagnostics,
      sources: sources, environmentReads: scenarios.flatMap(\.scenario.environmentReads))
    self.scenarios = scenarios
    self.parsed = parsed
  }

  /// A suite known by its index only: each instance is loaded again when it runs.
  public init(
    planned: PlannedInstances, knownTags: Set<String>, project: ProjectConfig, diagnostics: [Diagnostic],
    sources: [String: String], environmentReads: [EnvironmentRead] = []
  ) {
    scenarios = []
    parsed = []
    self.planned = planned
    self.knownTags = knownTags
    self.project = project
    self.diagnostics = diagnostics
    self.sources = sources
    self.environmentReads = environmentReads
  }

  /// The files a run of this suite reads, for the check that no report is written over one:
  /// `authflow.yaml`, the fixtures its mock tenants name by a literal path, and every scenario
  /// file of the plan, each once — read lazily, one instance at a time.
  public var inputFiles: some Sequence<String> {
    let directory = project.file.isEmpty ? "." : (project.file as NSString).deletingLastPathComponent
    var fixed: [String] = project.file.isEmpty ? [] : [project.file]
    for tenant in project.tenants {
      guard let literal = tenant.fixture?.literalValue?.stringValue else { continue }
      fixed.append(literal.hasPrefix("/") ? literal : (directory as NSString).appendingPathComponent(literal))
    }
    let planned = self.planned
    let scenarioFiles = sequence(state: (position: 0, last: String?.none)) { state -> String? in
      while state.position < planned.count {
        let file = planned[state.position].file
        state.position += 1
        if file != state.last {
          state.last = file
          return file
        }
      }
      return nil
    }
    return [AnySequence(fixed), AnySequence(scenarioFiles)].joined()
  }

  /// True when no diagnostic is an error.
  public var isValid: Bool { !diagnostics.hasErrors }

  /// Every instance of every scenario kept (``scenarios``), in file order.
  public var instances: [ScenarioInstance] { scenarios.flatMap(\.instances) }

  /// Stage 4, bind the plan: the tenant profiles named (the project's default without names) and
  /// the instances the selection takes. A name no profile has is an error (exit 2); so is naming
  /// none when `authflow.yaml` defines tenants, none of them `mock`, and no `default_tenant`: the
  /// run would silently test the embedded mock instead of the tenants the file was written for.
  public func plan(tenants names: [String]?, selection: Selection) -> Result<RunPlan, RunPlan.UnknownTenant> {
    if names == nil, project.wouldPassOverItsTenants {
      return .failure(
        RunPlan.UnknownTenant(
          name: ProjectConfig.embeddedTenantName, known: project.tenants.map(\.name.value), passedOver: project.file))
    }
    let tenantNames = names ?? [project.defaultTenantName]
    var profiles: [TenantProfile] = []
    for name in tenantNames {
      guard let profile = project.tenant(named: name) else {
        return .failure(RunPlan.UnknownTenant(name: name, known: project.tenants.map(\.name.value)))
      }
      profiles.append(profile)
    }
    var selection = selection
    if selection.shard != nil {
      let whole = selection.whole(of: planned)
      selection.shard?.selection = whole
    }
    let instances = selection.apply(to: planned)
    var plan = RunPlan(
      profiles: profiles, selection: selection, instances: instances,
      unknownTags: selection.unknownTags(known: knownTags), loadedCount: planned.count,
      projectDirectory: project.file.isEmpty ? "." : (project.file as NSString).deletingLastPathComponent)
    if !environmentReads.isEmpty {
      // Only the selected scenarios': a variable of a scenario the run leaves out is not needed.
      let selected = Set(instances.lazy.map(\.file))
      plan.environmentReads = environmentReads.filter { selected.contains($0.location.file) }
    }
    return .success(plan)
  }
}
