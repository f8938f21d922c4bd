public import AuthFlowCore
public import AuthFlowResults
public import AuthFlowScenario

/// One scenario instance in a ``RunPlan``, as a compact index entry: where it is (file, matrix
/// position), what it is called, its tags (for `--tag`, `--skip-tag`, `--shard`) and whether it
/// moves the mock's clock. A large run keeps these, not every parsed tree: the ``Runner`` loads the
/// instance again when it starts it (``InstanceLoading``), so memory does not grow with the files.
///
/// A plan made from scenarios already in memory (tests, the bench's login rig) carries them in
/// ``loaded`` and nothing is read again.
public struct PlannedInstance: Sendable {
  public var file: String
  /// The instance name: the title, with the matrix values for a matrix combination.
  public var name: String
  /// 0-based position among its scenario's instances.
  public var index: Int
  /// Where the scenario starts (its `scenario:` key).
  public var location: SourceLocation
  public var tags: [String]
  /// See ``ScenarioInstance/movesMockClock``.
  public var movesMockClock: Bool
  /// The instance itself when the plan keeps it; nil when it is loaded when it runs.
  public var loaded: ScenarioInstance? {
    get { box?.instance }
    set { box = newValue.map(InstanceBox.init) }
  }
  /// Boxed: a ``ScenarioInstance`` holds its whole scenario model inline, and an index entry of a
  /// 100,000-scenario plan must stay a few words, not that size, when it holds none.
  private var box: InstanceBox?

  /// The index entry of `instance`; `keeping` it makes the plan hold the instance.
  public init(_ instance: ScenarioInstance, keeping: Bool = true) {
    file = instance.scenario.file
    name = instance.name
    index = instance.index
    location = instance.scenario.location
    tags = instance.scenario.tags.map(\.value)
    movesMockClock = instance.movesMockClock
    box = keeping ? InstanceBox(instance) : nil
  }

  /// An index entry read back from a packed plan (``PlannedInstances``).
  init(
    file: String, name: String, index: Int, location: SourceLocation, tags: [String], movesMockClock: Bool
  ) {
    self.file = file
    self.name = name
    self.index = index
    self.location = location
    self.tags = tags
    self.movesMockClock = movesMockClock
    box = nil
  }

  /// The report of the instance when the run stopped before it started, as the report journal
  /// holds it until the instance runs: `interrupted`, without its steps (the index entry does not
  /// hold them; the ``Runner``'s final report reads them, ``NotStartedReports``).
  public var notRun: ScenarioReport { notRun(cause: nil) }

  /// ``notRun`` with the reason naming what stopped the run.
  func notRun(cause: StopCause?) -> ScenarioReport {
    ScenarioReport(
      name: name, file: file, location: location, tags: tags, status: .interrupted,
      skipReason: StopMessages.beforeStart(cause), duration: .zero, steps: [], started: false)
  }
}

extension Shard {
  /// Whether this shard runs `instance` (see ``contains(_:)``).
  public func contains(_ instance: PlannedInstance) -> Bool {
    contains(file: instance.file, name: instance.name)
  }
}

extension Selection {
  /// The planned instances the selection takes (see ``apply(to:)-(ScenarioInstance)``).
  public func apply(to instances: [PlannedInstance]) -> [PlannedInstance] {
    instances.filter(takes)
  }

  /// ``apply(to:)-([PlannedInstance])`` of a plan's instances, packed or not.
  public func apply(to instances: PlannedInstances) -> PlannedInstances {
    instances.selecting(takes)
  }

  /// What the selection takes of `instances` before its shard splits them: every shard of the run
  /// records the same (``AuthFlowResults/Shard/selection``).
  public func whole(of instances: PlannedInstances) -> Shard.Selection {
    var whole = Shard.Selection()
    for instance in instances where takesByTags(instance) { whole.add(file: instance.file, name: instance.name) }
    return whole
  }

  private func takes(_ instance: PlannedInstance) -> Bool {
    takesByTags(instance) && shard?.contains(instance) ?? true
  }

  private func takesByTags(_ instance: PlannedInstance) -> Bool {
    let tags = Set(instance.tags)
    if !self.tags.isEmpty && tags.isDisjoint(with: self.tags) { return false }
    return tags.isDisjoint(with: skipTags)
  }
}

/// A ``ScenarioInstance`` behind a reference (see ``PlannedInstance/loaded``).
private final class InstanceBox: Sendable {
  let instance: ScenarioInstance

  init(_ instance: ScenarioInstance) {
    self.instance = instance
  }
}
