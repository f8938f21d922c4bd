import AuthFlowCore
public import AuthFlowScenario
import Foundation

/// Stage 1, the source: the scenario files and directories a command is pointed at, and the
/// tenant profiles file. `authflow run`, `validate`, `graph` and `bench` all start here; see
/// docs/architecture.md, "A scenario through the stages".
public struct ScenarioSource: Sendable {
  /// Where `run` and `validate` look without paths.
  public static let defaultPaths = ["scenarios"]

  /// Scenario files or directories (directories are searched for `*.yaml` and `*.yml`).
  public var paths: [String]
  /// `--config`: the tenant profiles file; nil finds `authflow.yaml` near ``paths``.
  public var configFile: String?

  /// `paths`, or ``defaultPaths`` when empty.
  public init(paths: [String], configFile: String? = nil) {
    self.paths = paths.isEmpty ? Self.defaultPaths : paths
    self.configFile = configFile
  }

  /// Stages 2 and 3, parse → validate: every scenario (located YAML → model → checked, with its
  /// flow graph). `graph` stops here.
  public func scenarios() async -> ScenarioLoader.Output {
    await Pipeline.load(paths)
  }

  /// Stages 2 and 3 with the project: the scenarios, `authflow.yaml`, and the checks of one
  /// against the other (a pinned tenant, a `client:` or a `requires` nobody defines).
  /// `embedded` reads mock fixtures' clients. `validate` stops here.
  public func validated(embedded: (any EmbeddedTenantHost)?) async -> ValidatedSuite {
    let loaded = await scenarios()
    let project = Pipeline.loadProject(explicit: configFile, near: paths)
    return ValidatedSuite(
      scenarios: loaded.validated, parsed: loaded.scenarios, project: project.config,
      diagnostics: loaded.diagnostics + project.diagnostics + unread(loaded.projectFiles, project)
        + Pipeline.check(loaded.scenarios, against: project.config, embedded: embedded),
      sources: loaded.sources.merging(project.sources) { first, _ in first })
  }

  /// ``validated(embedded:)`` without keeping the scenarios, for a run: each file is parsed,
  /// validated and checked against `authflow.yaml`, and only its plan index entries
  /// (``PlannedInstance``) and tags are kept — memory does not grow with every file's tree. The
  /// runner loads each instance again when it starts it.
  public func planned(embedded: (any EmbeddedTenantHost)?) async -> ValidatedSuite {
    let project = Pipeline.loadProject(explicit: configFile, near: paths)
    let config = project.config
    let profiles = Pipeline.profiles(of: config, embedded: embedded)
    var plan = PlanIndex.Builder()
    var checks: [Diagnostic] = []
    var environmentReads: [EnvironmentRead] = []
    var knownTags: Set<String> = []
    let loaded = await Pipeline.loader.scan(
      paths,
      digest: { scenario, validated in
        FileDigest(
          record: PlanIndex.FileRecord(
            file: scenario.file, location: scenario.location, tags: scenario.tags.map(\.value),
            movesMockClock: validated?.instances.first?.movesMockClock ?? false,
            names: validated?.instances.map(\.name) ?? []),
          checks: config.check(scenario, profiles: profiles, catalog: ActionRegistry.catalog),
          environmentReads: validated == nil ? [] : scenario.environmentReads)
      },
      starting: { files in plan.expectedFiles = files },
      consume: { digest in
        // Each file's record goes into the packed plan as it arrives, in file order.
        plan.add(digest.record)
        checks += digest.checks
        environmentReads += digest.environmentReads
        knownTags.formUnion(digest.record.tags)
      })
    var sources = loaded.sources.merging(project.sources) { first, _ in first }
    // Snippets of the cross-checks' files, whose text the scan did not keep.
    for file in Set(checks.compactMap(\.location?.file)) where sources[file] == nil {
      sources[file] = SourceText.read(file)
    }
    return ValidatedSuite(
      planned: plan.build(), knownTags: knownTags, project: config,
      diagnostics: loaded.diagnostics + project.diagnostics + unread(loaded.projectFiles, project) + checks,
      sources: sources, environmentReads: environmentReads)
  }

  /// The `authflow.yaml` files among the scenario directories that the run would not read
  /// (``Pipeline/unreadProjectFiles(_:read:)``); none with `--config`.
  private func unread(_ projectFiles: [String], _ project: Pipeline.ProjectLoad) -> [Diagnostic] {
    configFile == nil ? Pipeline.unreadProjectFiles(projectFiles, read: project.file) : []
  }

  /// What ``planned(embedded:)`` keeps of one file until all are loaded: its plan record, its
  /// cross-checks and its unguarded `env.NAME` reads (almost always none of either).
  private struct FileDigest: Sendable {
    var record: PlanIndex.FileRecord
    var checks: [Diagnostic]
    var environmentReads: [EnvironmentRead]
  }
}
