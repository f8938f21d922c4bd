import AuthFlowCore
import AuthFlowExpression
public import AuthFlowResults
public import AuthFlowScenario

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
    let (validated, diagnostics) = loader.validatedScenario(at: planned.file)
    guard let validated else {
      let first = diagnostics.first { $0.isError }.map(\.description) ?? "it no longer loads"
      return .failure(InstanceLoadingError(planned: planned, reason: first))
    }
    let instances = validated.instances
    guard planned.index < instances.count, instances[planned.index].name == planned.name else {
      return .failure(InstanceLoadingError(planned: planned, reason: "the instance is no longer in the file"))
    }
    return .success(instances[planned.index])
  }
}

/// A planned instance whose file changed after validation.
struct InstanceLoadingError: Error, Sendable {
  var planned: PlannedInstance
  var reason: String

  /// The instance's report: an environment error, before any step ran.
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
