public import AuthFlowCore
public import AuthFlowExpression
public import AuthFlowHTTP
public import AuthFlowResults
public import AuthFlowScenario

/// Stage 4, the plan: which tenant profiles, and which scenario instances the selection (`--tag`,
/// `--skip-tag`, `--shard`) takes. Binding it starts the tenants (``bind(_:)``).
public struct RunPlan: Sendable {
  /// A `--tenant` name that `authflow.yaml` does not define; or no name at all, where the run
  /// would fall back to the embedded mock though `authflow.yaml` defines other tenants.
  public struct UnknownTenant: Error, Sendable {
    public var name: String
    public var known: [String]
    /// The file whose tenants the run would have passed over for the embedded mock, when no
    /// tenant was named (``ValidatedSuite/plan(tenants:selection:)``).
    public var passedOver: String?

    public init(name: String, known: [String], passedOver: String? = nil) {
      self.name = name
      self.known = known
      self.passedOver = passedOver
    }

    /// `no tenant named 'mok' (did you mean 'mock'?); known tenants: mock, staging`.
    public var message: String {
      if let passedOver {
        let list = known.map { "'\($0)'" }.joined(separator: ", ")
        return
          "\(passedOver) defines the tenants \(list) and no default_tenant, so naming no tenant would use the embedded "
          + "mock instead; name one with --tenant \(known.first ?? "NAME"), or add 'default_tenant: mock' to "
          + "\(passedOver) to run on the mock"
      }
      let hint = Suggestion.hint(for: name, in: known).map { " (\($0))" } ?? ""
      return "no tenant named '\(name)'\(hint); known tenants: \(known.joined(separator: ", "))"
    }
  }

  /// The profiles to run on, in `--tenant` order.
  public var profiles: [TenantProfile]
  public var selection: Selection
  /// The selected instances, in file order: index entries, each loaded when it runs (or held,
  /// when the suite kept its scenarios).
  public var instances: PlannedInstances
  /// `--tag`/`--skip-tag` values no scenario has.
  public var unknownTags: [Selection.UnknownTag]
  /// How many instances there were before the selection.
  public var loadedCount: Int
  /// The directory `authflow.yaml` is in: fixture paths are relative to it.
  public var projectDirectory: String
  /// The selected scenarios' `env.NAME` reads that do not cope with the variable's absence
  /// (``AuthFlowScenario/Scenario/environmentReads``), in file order.
  public var environmentReads: [EnvironmentRead] = []

  /// The tenant names, in order (a comparison run has several).
  public var tenantNames: [String] { profiles.map(\.name.value) }

  /// Every scenario the run will report, each as not run: the report of a run stopped before (or
  /// while) its tenants start. Made when read, one at a time.
  public var notRun: ScenarioReports { TenantRuns.notRun(instances, tenants: tenantNames) }

  /// Binds the plan to running tenants: evaluates each profile, starts embedded mocks, discovers
  /// real tenants. On a failure the tenants already started are stopped.
  public func bind(_ resolver: TenantResolver) async throws(BindFailure) -> BoundRun {
    var resolved: [ResolvedTenant] = []
    for profile in profiles {
      do {
        resolved.append(try await resolver.resolve(profile))
      } catch {
        for tenant in resolved { await tenant.stop() }
        throw BindFailure(tenant: profile.name.value, error: error)
      }
    }
    return BoundRun(plan: self, tenants: resolved)
  }

  /// A tenant that could not be resolved: which, and why.
  public struct BindFailure: Error, Sendable {
    public var tenant: String
    public var error: TenantResolutionError
  }
}

/// Stage 4, bound: the plan with its tenants running (clients, users and capabilities known). Its
/// ``runs(services:functions:jobs:keepsStepResults:)`` produce the results; ``stop()`` stops the
/// embedded mocks.
public struct BoundRun: Sendable {
  public var plan: RunPlan
  public var tenants: [ResolvedTenant]

  /// Stage 5, the run: the interpreter on every selected instance, on each tenant in turn.
  public func runs(
    services: RunServices, functions: FunctionRegistry = Pipeline.functions, jobs: Int, keepsStepResults: Bool,
    spool: ScenarioSpool? = nil
  ) -> TenantRuns {
    TenantRuns(
      tenants: tenants.map(\.context), services: services, functions: functions, jobs: jobs,
      keepsStepResults: keepsStepResults, spool: spool)
  }

  /// A located error for each read of a variable `environment` does not set, in a selected
  /// scenario that would run on one of the tenants (one skipped before its first step on every
  /// tenant — pinned elsewhere, a capability or profile missing — reads nothing): the run refuses
  /// to start (exit 2) rather than read it as `null`, where a negated check against it would hold.
  /// A CI job that forgot to export a variable is told which, where. Only the files with such a
  /// read are loaded again, to judge their skips.
  public func unsetEnvironment(in environment: [String: String], chromium: ChromiumHost?) -> [Diagnostic] {
    let unset = plan.environmentReads.filter { environment[$0.name] == nil }
    guard !unset.isEmpty else { return [] }
    let loading = InstanceLoading(functions: Pipeline.functions)
    var runs: [String: Bool] = [:]
    for file in Set(unset.map(\.location.file)) {
      let planned = plan.instances.filter { $0.file == file }
      guard let first = planned.first else { continue }
      // Each file read once, whatever its matrix; a file that no longer loads is reported when it
      // runs, and its reads here.
      let instances = loading.instances(in: first)
      runs[file] = planned.contains { entry in
        guard case .success(let instance) = loading.instance(entry, of: instances) else { return true }
        return tenants.contains { $0.context.skipReason(for: instance.scenario, chromium: chromium) == nil }
      }
    }
    return unset.filter { runs[$0.location.file] == true }.map { read in
      Diagnostic.error(
        TenantMessages.scenarioUnsetVariable(read.name), at: read.location, length: read.length,
        hint: TenantMessages.unsetVariableHint(read.name))
    }
  }

  /// Stops every embedded mock.
  public func stop() async {
    for tenant in tenants { await tenant.stop() }
  }
}
