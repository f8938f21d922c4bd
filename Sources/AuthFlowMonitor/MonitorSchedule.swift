public import AuthFlowScenario

/// When each target runs next: its interval (``MonitorProfile/interval(name:tags:)``) from the
/// start of its last run, moved by up to the jitter either way; a run that took longer than its
/// interval is followed by the next one at once, never by two. The first runs spread over the
/// first interval's jitter window, so that a service started with a hundred scenarios does not
/// send them all in the same second.
public struct MonitorSchedule: Sendable {
  public struct Entry: Sendable {
    public var interval: Duration
    /// When it is due (nil while it runs).
    public var due: ContinuousClock.Instant?
  }

  public private(set) var entries: [String: Entry] = [:]
  let jitterPercent: Int
  /// Uniform in 0..<1 (a seeded generator in tests).
  var random: @Sendable () -> Double

  public init(jitterPercent: Int, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
    self.jitterPercent = jitterPercent
    self.random = random
  }

  /// Adds a target, due within the jitter window from `now` (at once without jitter).
  public mutating func add(_ id: String, interval: Duration, now: ContinuousClock.Instant) {
    entries[id] = Entry(interval: interval, due: now + window(interval) * random())
  }

  /// A reload changed the target's interval: its next start counts with it from its next run.
  public mutating func setInterval(_ id: String, _ interval: Duration) {
    entries[id]?.interval = interval
  }

  public mutating func remove(_ id: String) {
    entries[id] = nil
  }

  /// The targets due at `now`, earliest first.
  public func due(at now: ContinuousClock.Instant) -> [String] {
    var due: [(id: String, at: ContinuousClock.Instant)] = []
    for (id, entry) in entries {
      if let at = entry.due, at <= now { due.append((id, at)) }
    }
    due.sort { $0.at < $1.at || ($0.at == $1.at && $0.id < $1.id) }
    return due.map(\.id)
  }

  /// The earliest due time of a target not running.
  public var nextDue: ContinuousClock.Instant? {
    entries.values.compactMap(\.due).min()
  }

  /// The target started: not due again until it finishes.
  public mutating func started(_ id: String) {
    entries[id]?.due = nil
  }

  /// The target's run that started at `start` finished at `now`: due an interval after its start,
  /// moved by the jitter, and not before now.
  public mutating func finished(_ id: String, startedAt start: ContinuousClock.Instant, now: ContinuousClock.Instant) {
    guard let entry = entries[id] else { return }
    let shift = window(entry.interval) * (2 * random() - 1)
    entries[id]?.due = max(now, start + entry.interval + shift)
  }

  /// How far the jitter may move a start (either way).
  func window(_ interval: Duration) -> Duration {
    interval * Double(jitterPercent) / 100
  }
}
