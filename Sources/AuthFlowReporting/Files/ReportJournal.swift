public import AuthFlowResults
public import Foundation

/// Keeps the file reports (`junit:`, `json:`) current while a run goes on, so that a run stopped
/// hard — a second Ctrl-C, a crash, `kill -9` — still leaves valid reports of everything that
/// finished.
///
/// It starts from every selected scenario marked `interrupted` (not started), and rewrites the
/// files (atomically, through the reporters) with what the report would say if the run ended now:
/// finished scenarios as they ended, those running and those not started `interrupted` (the reason
/// says which), the run marked interrupted. The final report replaces it at the end.
///
/// With the run's ``ScenarioSpool`` it keeps nothing per scenario: the finished ones are read back
/// from the spool and the others made from `planned` at each rewrite, one at a time. Without one
/// (tests) it records each scenario as it starts and finishes.
///
/// Rewrites are throttled so that a long run is not quadratic: at most one every ``interval``,
/// which grows to ten times the time the last rewrite took (a 100,000-scenario run spends at most
/// about a tenth of its time on them, and rewrites less often the longer each takes); a scenario
/// that finishes is on disk within one interval. ``writeNow()`` writes at once (the second
/// signal); ``close()`` stops it before the final write.
public actor ReportJournal: RunObserver {
  private let writers: [any Reporter]
  private let tenant: String
  private let startedAt: Date
  private let started = ContinuousClock.now
  private let keepsStepResults: Bool
  /// The run's `--shard`, so that a report left by a hard stop still merges as that shard.
  private let shard: Shard?
  /// What stopped the run, once something did: the report a second signal leaves says why.
  private let stops: StopRecord?
  private let minimumInterval: Duration
  /// Every scenario as not run (made when read), and the spool the finished ones are in.
  private let planned: ScenarioReports
  private let spool: ScenarioSpool?
  /// Without a spool: every scenario's report as recorded so far.
  private var scenarios: [ScenarioReport]
  /// Indices of scenarios not started yet, and started but not finished, by file and name.
  private var waiting: [String: [Int]] = [:]
  private var running: [String: [Int]] = [:]
  private var lastWrite: ContinuousClock.Instant?
  private var dirty = false
  private var closed = false
  private var scheduled: Task<Void, Never>?
  private var writing: Task<Void, Never>?
  /// The current shortest time between two rewrites.
  public private(set) var interval: Duration
  /// How many times the files were written (for tests).
  public private(set) var writeCount = 0

  /// - Parameters:
  ///   - reporters: the run's reporters; only those with a ``Reporter/reportPath`` that is not a
  ///     stream (``AtomicFile/isStream(_:)``) are written.
  ///   - planned: every scenario the run will report, in report order, each as not run
  ///     (the runtime's `RunPlan.notRun`), made when read.
  ///   - spool: where the run spools its finished scenarios, at the positions of `planned`; nil
  ///     records them here as they finish (`planned` is then read into memory, when a reporter
  ///     writes a file).
  ///   - stops: what stopped the run, for the report a stop leaves (`run.stop_cause`).
  public init(
    reporters: ReporterGroup, tenant: String, startedAt: Date, planned: ScenarioReports,
    spool: ScenarioSpool? = nil, shard: Shard? = nil, stops: StopRecord? = nil, minimumInterval: Duration = .seconds(1)
  ) {
    self.shard = shard
    self.stops = stops
    writers = reporters.reporters.filter(Self.rewrites)
    keepsStepResults = writers.contains { $0.needsStepResults }
    self.tenant = tenant
    self.startedAt = startedAt
    self.minimumInterval = minimumInterval
    interval = minimumInterval
    self.planned = planned
    self.spool = spool
    let recorded = writers.isEmpty || spool != nil ? [] : Array(planned)
    scenarios = recorded
    for (index, scenario) in recorded.enumerated() {
      waiting[Self.key(scenario.file, scenario.name), default: []].append(index)
    }
  }

  /// ``init(reporters:tenant:startedAt:planned:spool:shard:stops:minimumInterval:)`` with the
  /// scenarios in memory, built only when a reporter writes a file.
  public init(
    reporters: ReporterGroup, tenant: String, startedAt: Date, planned: @autoclosure () -> [ScenarioReport],
    shard: Shard? = nil, stops: StopRecord? = nil, minimumInterval: Duration = .seconds(1)
  ) {
    let needed = reporters.reporters.contains(where: Self.rewrites)
    self.init(
      reporters: reporters, tenant: tenant, startedAt: startedAt, planned: ScenarioReports(needed ? planned() : []),
      shard: shard, stops: stops, minimumInterval: minimumInterval)
  }

  /// Whether the journal rewrites `reporter`'s report: it writes a file, not a stream
  /// (`/dev/stdout`), which is written once, at the end — rewriting would repeat it.
  private static func rewrites(_ reporter: any Reporter) -> Bool {
    reporter.reportPath.map { !AtomicFile.isStream($0) } ?? false
  }

  /// False when no reporter writes a file: then the journal has nothing to do.
  public nonisolated var isNeeded: Bool { !writers.isEmpty }

  public func scenarioStarted(name: String, file: String) async {
    guard spool == nil else { return }
    let key = Self.key(file, name)
    guard var indices = waiting[key], !indices.isEmpty else { return }
    let index = indices.removeFirst()
    waiting[key] = indices
    running[key, default: []].append(index)
    scenarios[index].skipReason = JournalMessages.stoppedWhileRunning
    scenarios[index].started = true
  }

  public func stepFinished(_ step: StepReport, scenario: String) async {}

  public func scenarioFinished(_ report: ScenarioReport) async {
    guard spool == nil else {
      // The runner spooled it before telling anyone.
      dirty = true
      scheduleWrite()
      return
    }
    let key = Self.key(report.file, report.name)
    let index: Int
    if var indices = running[key], !indices.isEmpty {
      index = indices.removeFirst()
      running[key] = indices
    } else if var indices = waiting[key], !indices.isEmpty {
      index = indices.removeFirst()
      waiting[key] = indices
    } else {
      return
    }
    scenarios[index] = keepsStepResults ? report : report.droppingStepResults()
    dirty = true
    scheduleWrite()
  }

  /// Writes the files now with everything recorded so far, and waits for it.
  public func writeNow() async {
    guard !closed else { return }
    enqueueWrite()
    await writing?.value
  }

  /// Stops rewriting (the final report is about to be written) and waits for a write under way.
  public func close() async {
    closed = true
    scheduled?.cancel()
    scheduled = nil
    await writing?.value
  }

  private func scheduleWrite() {
    guard !closed, scheduled == nil else { return }
    let due = lastWrite.map { $0 + interval } ?? .now
    scheduled = Task {
      try? await Task.sleep(until: due, clock: .continuous)
      await self.scheduledWriteDue()
    }
  }

  private func scheduledWriteDue() async {
    scheduled = nil
    guard !closed, dirty else { return }
    enqueueWrite()
    await writing?.value
  }

  /// Writes after any write under way, so that two never race on one file.
  private func enqueueWrite() {
    let previous = writing
    writing = Task {
      await previous?.value
      await self.write()
    }
  }

  private func write() async {
    guard !closed else { return }
    dirty = false
    let began = ContinuousClock.now
    let report = RunReport(
      tenant: tenant, startedAt: startedAt, duration: began - started, scenarios: snapshot(), interrupted: true,
      shard: shard, stopCause: stops?.cause)
    for writer in writers { try? await writer.finish(report) }
    let now = ContinuousClock.now
    lastWrite = now
    writeCount += 1
    interval = max(minimumInterval, (now - began) * 10)
    if dirty { scheduleWrite() }
  }

  /// The run as it stands: from the spool, or what was recorded.
  private func snapshot() -> ScenarioReports {
    guard let spool else { return ScenarioReports(scenarios) }
    // The spool kept step results only if a reporter writes them.
    let planned = self.planned
    return spool.reports(in: 0..<planned.count) { position, running in
      var report = planned[position]
      if running {
        report.skipReason = JournalMessages.stoppedWhileRunning
        report.started = true
      }
      return report
    }
  }

  private static func key(_ file: String, _ name: String) -> String { "\(file)\u{0}\(name)" }
}

/// The journal's texts.
enum JournalMessages {
  static let stoppedWhileRunning = "the run was interrupted while this scenario was running"
}
