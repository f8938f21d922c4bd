public import AuthFlowCore
public import AuthFlowExpression
public import AuthFlowResults
public import AuthFlowScenario
import Synchronization

/// Loads a ``PlannedInstance`` when the ``Runner`` starts it: the file is read, parsed and
/// validated again, and the instance at the planned matrix position taken — so a run holds a few
/// parsed files, not one tree per file.
///
/// The instances of one file share one parse: the parsed files are kept in a small cache
/// (``ParsedFiles``, the last ``ParsedFiles/capacity`` files read), and a run's instances are
/// planned file by file, so a matrix of N rows is read once at run time, not N times. A worker
/// that needs a file another worker is reading waits for that parse rather than making its own.
///
/// A file that no longer loads cleanly, or whose instance is no longer there under its planned
/// name, was changed after it was validated: the instance ends as an `error`, saying so.
struct InstanceLoading: Sendable {
  let loader: ScenarioLoader
  let files: ParsedFiles

  init(functions: FunctionRegistry, capacity: Int = ParsedFiles.defaultCapacity) {
    loader = ScenarioLoader(catalog: ActionRegistry.catalog, functions: functions)
    files = ParsedFiles(capacity: capacity)
  }

  func instance(_ planned: PlannedInstance) -> Result<ScenarioInstance, InstanceLoadingError> {
    if let loaded = planned.loaded { return .success(loaded) }
    return instance(planned, of: instances(in: planned))
  }

  /// Every instance of the planned instance's file, or why the file no longer loads: the cached
  /// parse when the file was read lately.
  func instances(in planned: PlannedInstance) -> Result<[ScenarioInstance], InstanceLoadingError> {
    files.instances(of: planned.file) {
      let (validated, diagnostics) = loader.validatedScenario(at: planned.file)
      guard let validated else {
        let first = diagnostics.first { $0.isError }.map(\.description) ?? "it no longer loads"
        return .failure(InstanceLoadingError(planned: planned, reason: first))
      }
      return .success(validated.instances)
    }
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
/// the instance's file (the instances of one file share its parse). Reading them is bounded:
/// past ``deadline`` (a very large run stopped early) the rest are reported without their steps.
struct NotStartedReports {
  /// How long a stopped run spends reading the planned steps of what it never started.
  static let budget: Duration = .seconds(3)

  let loading: InstanceLoading
  let cause: StopCause?
  let deadline: ContinuousClock.Instant

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
      // Consecutive instances of one file share its parse (``ParsedFiles``).
      instance = try? loading.instance(planned, of: loading.instances(in: planned)).get()
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

/// The files a run read lately, parsed and validated, shared by the instances of each
/// (``InstanceLoading``). Bounded: the last ``capacity`` files, the least recently used one
/// dropped first — a run's memory does not grow with its files.
final class ParsedFiles: Sendable {
  typealias Instances = Result<[ScenarioInstance], InstanceLoadingError>

  /// Enough for every job of a run to be in a different file, twice over.
  static let defaultCapacity = 16

  /// One file: its parse once made, and the lock a second reader waits on while the first parses.
  private final class Slot: Sendable {
    let parse = Mutex<Instances?>(nil)
  }

  private struct State {
    var slots: [String: Slot] = [:]
    /// Least recently used first.
    var order: [String] = []
    var parses = 0
  }

  let capacity: Int
  private let state = Mutex(State())

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// How many times a file was parsed (the tests count them).
  var parses: Int { state.withLock { $0.parses } }

  /// The file's instances: the kept parse, or `parse()`'s, then kept.
  func instances(of file: String, parse: () -> Instances) -> Instances {
    let slot = state.withLock { state -> Slot in
      if let slot = state.slots[file] {
        if let position = state.order.firstIndex(of: file) { state.order.remove(at: position) }
        state.order.append(file)
        return slot
      }
      let slot = Slot()
      state.slots[file] = slot
      state.order.append(file)
      if state.order.count > capacity { state.slots[state.order.removeFirst()] = nil }
      return slot
    }
    return slot.parse.withLock { kept in
      if let kept { return kept }
      let parsed = parse()
      state.withLock { $0.parses += 1 }
      kept = parsed
      return parsed
    }
  }
}

extension PlannedInstances {
  /// Every instance loaded now, each file read once however many rows its matrix has: the
  /// instance, or the report of a file that no longer loads (an environment error, as a run
  /// reports it). A long-running service loads its scenarios once with this and runs them again
  /// and again.
  public func loadedAll(
    functions: FunctionRegistry = Pipeline.functions
  ) -> [Result<ScenarioInstance, InstanceLoadFailure>] {
    let loading = InstanceLoading(functions: functions)
    return map { planned in loading.instance(planned).mapError { InstanceLoadFailure(report: $0.report) } }
  }
}

/// An instance whose file no longer loads: its report says why.
public struct InstanceLoadFailure: Error, Sendable {
  public var report: ScenarioReport
}
