public import AuthFlowCore
public import AuthFlowResults
public import AuthFlowRun
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Synchronization

/// `authflow monitor`'s engine: a ``PreparedRun`` whose targets (scenario × tenant) run on a
/// schedule — an interval per scenario or tag, jitter, at most ``MonitorProfile/concurrency`` at
/// once, never two runs of one target at once, a scenario that moves the mock's clock alone on
/// its tenant — their results kept for the status page and exported as metrics.
///
/// ``load()`` prepares the first set (files parsed, validated and loaded once, tenants bound);
/// ``run()`` schedules until ``shutdown()``; ``reload()`` (SIGHUP) prepares the files again and
/// swaps the set in, or keeps the running one and says why; ``probe(scenario:tenant:timeout:)``
/// runs one target on demand.
public final class Monitor: Sendable {
  public let configuration: MonitorConfiguration
  public let metrics = MonitorMetrics()
  public let results: MonitorResults
  let watch: TenantWatch
  private let events: AsyncStream<Event>
  private let continuation: AsyncStream<Event>.Continuation
  /// The running set, for probes (the loop keeps its own reference too).
  private let current = Mutex<Generation?>(nil)
  private let probing = Mutex<Set<String>>([])
  private let stopping = Atomic<Bool>(false)

  enum Event: Sendable {
    case tick
    case finished(id: String, report: ScenarioReport, started: ContinuousClock.Instant, startedAt: Date, Generation)
    case reload
    /// The files read again by a reload (prepared beside the loop, which goes on scheduling).
    case prepared
    case shutdown
    case graceOver
  }

  public init(_ configuration: MonitorConfiguration) {
    var configuration = configuration
    // A reload binds the new set before the old one retires: a receiver on a fixed port
    // (`inbox.smtp: { listen: 127.0.0.1:2525 }`) is handed over, not started twice.
    configuration.run.inboxHost = SharedInboxHost(configuration.run.inboxHost)
    self.configuration = configuration
    results = MonitorResults(history: configuration.history)
    watch = TenantWatch(metrics: metrics)
    (events, continuation) = AsyncStream.makeStream(of: Event.self)
  }

  /// A prepared set of targets and its schedule settings; stopped once retired and its last run
  /// (scheduled or probe) has finished.
  final class Generation: Sendable {
    let prepared: PreparedRun
    let profile: MonitorProfile
    /// Targets by id, with their metric labels.
    let targets: [String: (target: PreparedRun.Target, label: String)]
    let order: [String]
    private let leases = Mutex<(count: Int, retired: Bool, stopped: Bool)>((0, false, false))

    init(_ prepared: PreparedRun, profile: MonitorProfile) {
      self.prepared = prepared
      self.profile = profile
      let labels = Generation.labels(prepared.targets)
      var targets: [String: (PreparedRun.Target, String)] = [:]
      for (target, label) in zip(prepared.targets, labels) { targets[target.id] = (target, label) }
      self.targets = targets
      order = prepared.targets.map(\.id)
    }

    /// The scenario label of each target: its name, with its file when two targets on one
    /// tenant share a name.
    static func labels(_ targets: [PreparedRun.Target]) -> [String] {
      var counts: [String: Int] = [:]
      for target in targets { counts[target.tenant + "\u{0}" + target.scenario, default: 0] += 1 }
      return targets.map { target in
        counts[target.tenant + "\u{0}" + target.scenario, default: 0] > 1
          ? "\(target.scenario) (\(target.file))" : target.scenario
      }
    }

    func interval(of target: PreparedRun.Target) -> Duration {
      profile.interval(name: target.scenario, tags: target.tags)
    }

    /// Takes a lease for a run; false once retired.
    func lease() -> Bool {
      leases.withLock { state in
        guard !state.retired else { return false }
        state.count += 1
        return true
      }
    }

    func release() async {
      let stop = leases.withLock { state -> Bool in
        state.count -= 1
        guard state.retired, state.count == 0, !state.stopped else { return false }
        state.stopped = true
        return true
      }
      if stop { await prepared.stop() }
    }

    /// No new runs; stopped when the last one ends (now, when none runs).
    func retire() async {
      let stop = leases.withLock { state -> Bool in
        state.retired = true
        guard state.count == 0, !state.stopped else { return false }
        state.stopped = true
        return true
      }
      if stop { await prepared.stop() }
    }
  }

  // MARK: Loading

  /// Prepares the scenario set (diagnostics on the console, as `authflow run` prints them); the
  /// exit code `authflow run` would end with when it cannot be.
  public func load() async -> AuthFlowExitCode? {
    switch await prepare() {
    case .success(let generation):
      install(generation)
      return nil
    case .failure(let failure):
      metrics.recordLoad(targets: 0, successful: false, at: Date())
      return failure.exitCode
    }
  }

  private func prepare(console: RunConsole? = nil) async -> Result<Generation, RunSession.PreparationFailure> {
    var run = configuration.run
    if let console { run.console = console }
    do {
      let prepared = try await RunSession(run).prepare()
      return .success(Generation(prepared, profile: configuration.profile(prepared.project.monitor)))
    } catch {
      return .failure(error)
    }
  }

  private func install(_ generation: Generation) {
    let before = current.withLock { current in
      defer { current = generation }
      return current
    }
    // The series of targets the new set drops (or labels otherwise) go.
    if let before {
      let kept = Set(generation.targets.values.map { "\($0.label)\u{0}\($0.target.tenant)" })
      for (target, label) in before.targets.values where !kept.contains("\(label)\u{0}\(target.tenant)") {
        metrics.forget(scenario: label, tenant: target.tenant)
      }
    }
    results.setTargets(
      generation.order.compactMap { id in
        generation.targets[id].map { target, label in
          MonitorResults.Entry(
            id: id, scenario: label, file: target.file, tenant: target.tenant,
            interval: generation.interval(of: target))
        }
      }, tenants: generation.prepared.tenants.map { ($0.name, $0.baseURL) }, at: Date())
    for id in generation.order {
      guard let (target, label) = generation.targets[id] else { continue }
      metrics.recordInterval(scenario: label, tenant: target.tenant, interval: generation.interval(of: target))
    }
    metrics.recordLoad(targets: generation.order.count, successful: true, at: Date())
  }

  // MARK: Control

  /// Prepares the files again (SIGHUP): the new set replaces the running one when it is valid;
  /// otherwise the running set goes on and ``MonitorResults/Status/reloadError`` says why.
  public func reload() {
    continuation.yield(.reload)
  }

  /// Stops scheduling; running scenarios get ``MonitorConfiguration/grace`` to finish, then are
  /// cut short (their cleanup runs; they are recorded interrupted, not as a verdict). ``run()``
  /// returns once every run has ended and the tenants are stopped.
  public func shutdown() {
    stopping.store(true, ordering: .relaxed)
    continuation.yield(.shutdown)
  }

  /// Whether the monitor serves results (loaded, not stopping): `/readyz`.
  public var isReady: Bool {
    results.status.ready && !stopping.load(ordering: .relaxed)
  }

  // MARK: The loop

  /// Schedules the loaded set until ``shutdown()``.
  public func run() async {
    guard var generation = current.withLock({ $0 }) else { return }
    var schedule = MonitorSchedule(jitterPercent: generation.profile.jitterPercent)
    let now = ContinuousClock.now
    for id in generation.order {
      if let target = generation.targets[id]?.target {
        schedule.add(id, interval: generation.interval(of: target), now: now)
      }
    }
    var running: [String: (task: Task<Void, Never>, target: PreparedRun.Target)] = [:]
    var shuttingDown = false
    var grace: Task<Void, Never>?
    var iterator = events.makeAsyncIterator()
    /// A reload's preparation in flight (discovery of a slow tenant must not hold the schedule),
    /// with what it printed; another SIGHUP meanwhile asks for one more after it.
    var preparing: Task<(Result<Generation, RunSession.PreparationFailure>, [String]), Never>?
    var reloadAgain = false

    func startPreparing() {
      // What the reload prints goes to the console and, its first lines, to the status page.
      let console = configuration.run.console
      preparing = Task { [continuation] in
        let said = Mutex<[String]>([])
        let capturing = RunConsole(
          out: { line in
            console.out(line)
            said.withLock { $0.append(line) }
          },
          error: { line in
            console.error(line)
            said.withLock { $0.append(line) }
          })
        let result = await prepare(console: capturing)
        continuation.yield(.prepared)
        return (result, said.withLock { $0 })
      }
    }

    func canStart(_ target: PreparedRun.Target) -> Bool {
      let onTenant = running.values.filter { $0.target.tenant == target.tenant }
      if target.movesMockClock { return onTenant.isEmpty }
      return !onTenant.contains { $0.target.movesMockClock }
    }

    func startDue() {
      guard !shuttingDown else { return }
      let now = ContinuousClock.now
      for id in schedule.due(at: now) {
        guard running.count < generation.profile.concurrency else { break }
        guard running[id] == nil, let (target, _) = generation.targets[id], canStart(target) else { continue }
        guard generation.lease() else { continue }
        schedule.started(id)
        results.started(id)
        running[id] = (start(target, in: generation), target)
      }
      metrics.recordInFlight(running.count)
    }

    while true {
      startDue()
      if shuttingDown, running.isEmpty { break }
      // Wake at the next due time still ahead; targets due but waiting for a slot wake when a run ends.
      let now = ContinuousClock.now
      let ahead = schedule.entries.values.compactMap(\.due).filter { $0 > now }.min()
      let timer =
        shuttingDown
        ? nil
        : ahead.map { due in
          Task { [continuation] in
            try? await Task.sleep(until: due, clock: .continuous)
            if !Task.isCancelled { continuation.yield(.tick) }
          }
        }
      let event = await iterator.next()
      timer?.cancel()
      switch event {
      case .tick?:
        break
      case .finished(let id, let report, let started, let startedAt, let of)?:
        running[id] = nil
        await of.release()
        // A run of the set before a reload counts for the same target in the new set; a target
        // the reload dropped is forgotten.
        if let (target, label) = generation.targets[id] {
          if report.status != .interrupted {
            metrics.record(report, scenario: label, tenant: target.tenant, finishedAt: Date())
          }
          announce(report, label: label, tenant: target.tenant, previous: results.entry(id)?.history.last?.status)
          results.record(id, report: report, startedAt: startedAt)
          schedule.finished(id, startedAt: started, now: .now)
        }
      case .reload?:
        guard !shuttingDown else { break }
        if preparing == nil { startPreparing() } else { reloadAgain = true }
      case .prepared?:
        guard let task = preparing else { break }
        let (result, said) = await task.value
        preparing = nil
        if shuttingDown {
          if case .success(let next) = result { await next.retire() }
          break
        }
        if reloadAgain {
          reloadAgain = false
          startPreparing()
        }
        switch result {
        case .failure(let failure):
          let why =
            "the files were not reloaded (exit \(failure.exitCode.rawValue) for authflow run); the running set goes on"
          configuration.run.console.error("warning: \(why)")
          let lines = said.joined(separator: "\n").split(separator: "\n").prefix(12)
          results.reloadRefused(([why] + lines.map(String.init)).joined(separator: "\n"))
          metrics.recordLoad(targets: 0, successful: false, at: Date())
        case .success(let next):
          let old = generation
          generation = next
          install(next)
          let now = ContinuousClock.now
          for id in schedule.entries.keys where next.targets[id] == nil { schedule.remove(id) }
          for id in next.order {
            guard let target = next.targets[id]?.target else { continue }
            let interval = next.interval(of: target)
            if schedule.entries[id] == nil {
              schedule.add(id, interval: interval, now: now)
            } else {
              schedule.setInterval(id, interval)
            }
          }
          await old.retire()
          configuration.run.console.error("monitor: reloaded, \(next.order.count) scenario runs scheduled")
        }
      case .shutdown?:
        guard !shuttingDown else { break }
        shuttingDown = true
        let limit = configuration.grace
        grace = Task { [continuation] in
          try? await Task.sleep(for: limit)
          if !Task.isCancelled { continuation.yield(.graceOver) }
        }
      case .graceOver?:
        for run in running.values { run.task.cancel() }
      case nil:
        shuttingDown = true
        for run in running.values { run.task.cancel() }
      }
    }
    grace?.cancel()
    // A reload still preparing when the runs ended: its tenants are stopped unused.
    if let task = preparing, case .success(let next) = await task.value.0 { await next.retire() }
    metrics.recordInFlight(0)
    current.withLock { $0 = nil }
    await generation.retire()
  }

  // MARK: Probes

  /// What `/probe` gets.
  public enum ProbeOutcome: Sendable {
    /// The run's report, its scenario label and tenant.
    case ran(ScenarioReport, scenario: String, tenant: String)
    /// No target (or more than one) matches: why.
    case notFound(String)
    /// As many probes as the concurrency runs already, or one of this target does.
    case busy(String)
  }

  /// Runs the target named `scenario` (its label or its name) on `tenant` (optional with one
  /// tenant) now, beside the schedule, within `timeout` (past it the run is cut short and
  /// reported interrupted). At most ``MonitorProfile/concurrency`` probes run at once, one per target.
  public func probe(scenario: String, tenant: String?, timeout: Duration) async -> ProbeOutcome {
    guard let generation = current.withLock({ $0 }) else { return .busy("the monitor is not running") }
    let matches = generation.order.compactMap { generation.targets[$0] }.filter { target, label in
      (label == scenario || target.scenario == scenario) && (tenant == nil || target.tenant == tenant)
    }
    guard matches.count == 1, let (target, label) = matches.first else {
      let tenants = Set(matches.map(\.target.tenant)).sorted()
      return .notFound(
        matches.isEmpty
          ? "no scenario '\(scenario)'\(tenant.map { " on tenant '\($0)'" } ?? "") in the running set"
          : "scenario '\(scenario)' runs on several tenants (\(tenants.joined(separator: ", "))): add tenant=NAME")
    }
    let admitted = probing.withLock { probing -> Bool in
      guard probing.count < generation.profile.concurrency, !probing.contains(target.id) else { return false }
      probing.insert(target.id)
      return true
    }
    guard admitted else { return .busy("a probe of this scenario runs already, or as many probes as the concurrency") }
    defer { probing.withLock { _ = $0.remove(target.id) } }
    guard generation.lease() else { return .busy("the running set is being replaced; probe again") }
    let run = Task { await generation.prepared.run(target, recordsExchanges: true) }
    let timer = Task {
      try? await Task.sleep(for: timeout)
      if !Task.isCancelled { run.cancel() }
    }
    let report = await run.value
    timer.cancel()
    await generation.release()
    return .ran(report, scenario: label, tenant: target.tenant)
  }

  /// Starts one run of `target`; its end comes back to the loop as an event.
  private func start(_ target: PreparedRun.Target, in generation: Generation) -> Task<Void, Never> {
    let (watch, continuation) = (self.watch, self.continuation)
    return Task {
      let started = ContinuousClock.now
      let startedAt = Date()
      // Each step's exchanges, masked, for the latest run's page on the status page.
      let report = await generation.prepared.run(target, recordsExchanges: true)
      if let tenant = generation.prepared.tenants.first(where: { $0.name == target.tenant }),
        report.status != .interrupted
      {
        await watch.observe(
          report, tenant: tenant, finishedAt: Date(), transport: generation.prepared.network.transport,
          pacer: generation.prepared.network.pacer)
      }
      continuation.yield(.finished(id: target.id, report: report, started: started, startedAt: startedAt, generation))
    }
  }

  /// A line on the console when a target's verdict changes (and for its first run).
  private func announce(_ report: ScenarioReport, label: String, tenant: String, previous: AuthFlowResults.Status?) {
    guard report.status != previous, report.status != .interrupted else { return }
    let reason = report.firstProblem?.problems.first?.message ?? report.skipReason
    let word = MonitorMetrics.result(report.status) ?? report.status.rawValue
    configuration.run.console.error(
      "monitor: \(label) on \(tenant): \(word)" + (reason.map { " — \($0)" } ?? ""))
  }
}
