public import AuthFlowCore
import AuthFlowReporting
public import AuthFlowResults
public import Foundation
import Synchronization

/// What the monitor knows of each target: its latest report (for the status page) and the last
/// runs' outcomes (the history strip, `/api/results`). Bounded: one report and `history` outcomes
/// per target; a target dropped by a reload is forgotten.
public final class MonitorResults: Sendable {
  /// One run's outcome.
  public struct Outcome: Sendable {
    public var status: Status
    public var startedAt: Date
    public var duration: Duration
    /// The first problem's message, masked as the reports mask it.
    public var problem: String?
  }

  /// One target, as the status page lists it.
  public struct Entry: Sendable {
    public var id: String
    /// The metric label: the scenario's name, with its file when two scenarios share a name.
    public var scenario: String
    public var file: String
    public var tenant: String
    public var interval: Duration
    public var latest: ScenarioReport?
    /// Oldest first.
    public var history: [Outcome] = []
    public var running = false
  }

  public struct Snapshot: Sendable {
    public var entries: [Entry]
    public var loadedAt: Date?
    /// Why the last reload was refused (the running set is the one before), nil after a good one.
    public var reloadError: String?
    public var ready: Bool
    /// The tenants watched, by name, with the URL they are reached at (an embedded mock's port
    /// is chosen when it starts).
    public var tenants: [(name: String, url: String)]
  }

  private struct State {
    var tenants: [(name: String, url: String)] = []
    var order: [String] = []
    var entries: [String: Entry] = [:]
    var loadedAt: Date?
    var reloadError: String?
    var ready = false
  }

  private let state = Mutex(State())
  let historyLimit: Int

  public init(history: Int) {
    historyLimit = max(1, history)
  }

  /// The targets of a (re)load: their history is kept when a target of the same id was there.
  func setTargets(_ entries: [Entry], tenants: [(name: String, url: String)], at date: Date) {
    state.withLock { state in
      state.tenants = tenants
      var next: [String: Entry] = [:]
      for var entry in entries {
        if let old = state.entries[entry.id] {
          entry.latest = old.latest
          entry.history = old.history
        }
        next[entry.id] = entry
      }
      state.entries = next
      state.order = entries.map(\.id)
      state.loadedAt = date
      state.reloadError = nil
      state.ready = true
    }
  }

  func reloadRefused(_ why: String) {
    state.withLock { $0.reloadError = why }
  }

  func started(_ id: String) {
    state.withLock { $0.entries[id]?.running = true }
  }

  func record(_ id: String, report: ScenarioReport, startedAt: Date) {
    let outcome = Outcome(
      status: report.status, startedAt: startedAt, duration: report.duration,
      problem: report.firstProblem.flatMap { $0.problems.first?.message } ?? report.skipReason)
    state.withLock { state in
      guard var entry = state.entries[id] else { return }
      entry.running = false
      entry.latest = report
      entry.history.append(outcome)
      if entry.history.count > historyLimit { entry.history.removeFirst(entry.history.count - historyLimit) }
      state.entries[id] = entry
    }
  }

  public var status: Snapshot {
    state.withLock { state in
      Snapshot(
        entries: state.order.compactMap { state.entries[$0] }, loadedAt: state.loadedAt,
        reloadError: state.reloadError, ready: state.ready, tenants: state.tenants)
    }
  }

  public func entry(_ id: String) -> Entry? {
    state.withLock { $0.entries[id] }
  }

  /// `/api/results`: every target with its latest outcome and history.
  public func json() -> Value {
    let status = self.status
    let targets: [Value] = status.entries.map { entry in
      var object: [String: Value] = [
        "id": .string(entry.id), "scenario": .string(entry.scenario), "file": .string(entry.file),
        "tenant": .string(entry.tenant), "interval_seconds": .double(entry.interval.seconds),
        "running": .bool(entry.running),
        "history": .array(entry.history.map(Self.json)),
      ]
      object["latest"] = entry.history.last.map(Self.json) ?? .null
      return .object(object)
    }
    return .object([
      "ready": .bool(status.ready),
      "loaded_at": status.loadedAt.map { .string(Self.timestamp($0)) } ?? .null,
      "reload_error": status.reloadError.map { .string($0) } ?? .null,
      "tenants": .array(status.tenants.map { .object(["name": .string($0.name), "url": .string($0.url)]) }),
      "scenarios": .array(targets),
    ])
  }

  static func json(_ outcome: Outcome) -> Value {
    .object([
      "status": .string(MonitorMetrics.result(outcome.status) ?? outcome.status.rawValue),
      "started_at": .string(timestamp(outcome.startedAt)),
      "duration_seconds": .double(outcome.duration.seconds),
      "problem": outcome.problem.map { .string($0) } ?? .null,
    ])
  }

  /// As the JSON report writes dates.
  static func timestamp(_ date: Date) -> String {
    Timestamp.iso8601(date)
  }
}
