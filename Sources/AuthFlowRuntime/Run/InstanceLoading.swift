import AuthFlowCore
import AuthFlowExpression
import AuthFlowResults
import AuthFlowScenario

/// Loads a ``PlannedInstance`` when the ``Runner`` starts it: the file is read, parsed and
/// validated again, and the instance at the planned matrix position taken — so a run holds one
/// parsed tree per running job, not one per file.
///
/// A file that no longer loads cleanly, or whose instance is no longer there under its planned
/// name, was changed after it was validated: the instance ends as an `error`, saying so.
struct InstanceLoading: Sendable {
  let loader: ScenarioLoader

  init(functions: FunctionRegistry) {
    loader = ScenarioLoader(catalog: ActionRegistry.catalog, functions: functions)
  }

  func instance(_ planned: PlannedInstance) -> Result<ScenarioInstance, InstanceLoadingError> {
    if let loaded = planned.loaded { return .success(loaded) }
    return instance(planned, of: instances(in: planned))
  }

  /// Every instance of the planned instance's file, or why the file no longer loads.
  func instances(in planned: PlannedInstance) -> Result<[ScenarioInstance], InstanceLoadingError> {
    let (validated, diagnostics) = loader.validatedScenario(at: planned.file)
    guard let validated else {
      let first = diagnostics.first { $0.isError }.map(\.description) ?? "it no longer loads"
      return .failure(InstanceLoadingError(planned: planned, reason: first))
    }
    return .success(validated.instances)
  }

  /// The planned instance among its file's instances, at its planned position and name.
  func instance(
    _ planned: PlannedInstance, of file: Result<[ScenarioInstance], InstanceLoadingError>
  ) -> Result<ScenarioInstance, InstanceLoadingError> {
    switch file {
    case .failure(let error): return .failure(InstanceLoadingError(planned: planned, reason: error.reason))
    case .success(let instances):
      guard planned.index < instances.count, instances[planned.index].name == planned.name else {
        return .failure(InstanceLoadingError(planned: planned, reason: "the instance is no longer in the file"))
      }
      return .success(instances[planned.index])
    }
  }
}

/// The reports of the instances a stopped run never started: `interrupted`, the reason naming the
/// stop, and each with the steps it planned (none run) so its flow can be drawn — read again from
/// the instance's file (consecutive instances of one file read it once). Reading them is bounded:
/// past ``deadline`` (a very large run stopped early) the rest are reported without their steps.
struct NotStartedReports {
  /// How long a stopped run spends reading the planned steps of what it never started.
  static let budget: Duration = .seconds(3)

  let loading: InstanceLoading
  let cause: StopCause?
  let deadline: ContinuousClock.Instant
  private var lastFile: (path: String, instances: Result<[ScenarioInstance], InstanceLoadingError>)?

  init(loading: InstanceLoading, cause: StopCause?, budget: Duration = Self.budget) {
    self.loading = loading
    self.cause = cause
    self.deadline = .now + budget
  }

  /// True once the budget has passed: every later report of an instance not in memory is
  /// `planned.notRun(cause:)`, without its steps.
  var budgetSpent: Bool { ContinuousClock.now >= deadline }

  mutating func report(_ planned: PlannedInstance) -> ScenarioReport {
    let instance: ScenarioInstance?
    if let loaded = planned.loaded {
      instance = loaded
    } else if ContinuousClock.now < deadline {
      let file: Result<[ScenarioInstance], InstanceLoadingError>
      if let lastFile, lastFile.path == planned.file {
        file = lastFile.instances
      } else {
        file = loading.instances(in: planned)
        lastFile = (planned.file, file)
      }
      instance = try? loading.instance(planned, of: file).get()
    } else {
      instance = nil
    }
    guard let instance else { return planned.notRun(cause: cause) }
    return ScenarioReport.notStarted(
      name: planned.name, file: planned.file, location: planned.location, tags: planned.tags, status: .interrupted,
      reason: StopMessages.beforeStart(cause), graph: instance.graph)
  }
}

/// A planned instance whose file changed after validation.
struct InstanceLoadingError: Error, Sendable {
  var planned: PlannedInstance
  var reason: String

  /// The instance's report: an environment error, before any step ran (its steps unknown: the
  /// file changed).
  var report: ScenarioReport {
    var report = planned.notRun
    report.status = .error
    report.skipReason = InstanceLoadingMessages.changed(reason)
    return report
  }
}

enum InstanceLoadingMessages {
  static func changed(_ reason: String) -> String {
    "the scenario file changed after it was validated: \(reason)"
  }
}
