public import AuthFlowCore

/// `monitor:` of `authflow.yaml`: how often `authflow monitor` runs each scenario (docs/monitor.md).
/// Every number has its range in ``InputLimits``; a scenario no schedule matches runs every
/// ``interval``.
public struct MonitorProfile: Sendable, Hashable {
  /// The default time between the starts of two runs of one scenario on one tenant (5 minutes).
  public static let defaultInterval: Duration = .seconds(300)
  /// The default jitter, in percent of the interval (10).
  public static let defaultJitterPercent = 10
  /// The default number of scenarios run at once (2).
  public static let defaultConcurrency = 2

  /// One schedule: the scenarios it matches (by tag, or by name) and their interval. The first
  /// schedule that matches a scenario wins.
  public struct Schedule: Sendable, Hashable {
    public enum Match: Sendable, Hashable {
      case tag(String)
      case scenario(String)
    }

    public var match: Match
    public var interval: Duration
    public var location: SourceLocation?

    public init(match: Match, interval: Duration, location: SourceLocation? = nil) {
      self.match = match
      self.interval = interval
      self.location = location
    }

    /// Whether the schedule takes a scenario of this name and these tags.
    public func matches(name: String, tags: [String]) -> Bool {
      switch match {
      case .tag(let tag): tags.contains(tag)
      case .scenario(let scenario): scenario == name
      }
    }
  }

  public var interval: Duration = Self.defaultInterval
  /// Each run's start moves by up to this percent of its interval, earlier or later, so that
  /// scenarios of one interval do not all start together.
  public var jitterPercent: Int = Self.defaultJitterPercent
  /// How many scenarios run at once, across every tenant.
  public var concurrency: Int = Self.defaultConcurrency
  public var schedules: [Schedule] = []

  public init() {}

  /// The interval of a scenario: the first schedule that matches it, else ``interval``.
  public func interval(name: String, tags: [String]) -> Duration {
    schedules.first { $0.matches(name: name, tags: tags) }?.interval ?? interval
  }
}
