/// Every range a number written by a user must fall in, and every resource limit of an input: the
/// one place these numbers live. `docs/scenario-language.md` (scenario files and expressions) and
/// `docs/running.md` (command-line flags) list them; keep them in step.
public enum InputLimits {
  // MARK: Durations

  /// The longest step or scenario `timeout`, `wait`, retry `delay`, fault delay and rate-limit
  /// wait: 24 hours.
  public static let longestDuration: Duration = .seconds(24 * 3600)
  /// The farthest `mock_clock` moves the virtual clock in one step, forward or back: 10,000 hours.
  public static let longestClockShift: Duration = .seconds(10_000 * 3600)
  /// The longest `ttl` of an organization invitation: 30 days.
  public static let longestInvitationTTL: Duration = .seconds(30 * 24 * 3600)
  /// The longest `min_ttl` (how long stored credentials must stay valid): 366 days.
  public static let longestMinimumTTL: Duration = .seconds(366 * 24 * 3600)
  /// The widest `within` tolerance (`seconds`): 366 days.
  public static let widestTolerance: Duration = .seconds(366 * 24 * 3600)
  /// `authflow run --run-timeout`: the whole run's deadline, from 1 second to 168 hours (7 days).
  public static let runTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(7 * 24 * 3600)
  /// `monitor.interval` and a schedule's `interval` (`authflow monitor --interval`): from 1 second
  /// to 24 hours.
  public static let monitorInterval: ClosedRange<Duration> = .seconds(1) ... .seconds(24 * 3600)
  /// `authflow bench --soak-duration`: 10 seconds to 24 hours.
  public static let soakDuration: ClosedRange<Duration> = .seconds(10) ... .seconds(24 * 3600)
  /// `authflow monitor --grace`: how long a stopping monitor lets its runs finish, 0 to 10 minutes.
  public static let monitorGrace: ClosedRange<Duration> = .zero ... .seconds(600)

  // MARK: Counts and factors

  /// A step's retry `attempts`.
  public static let retryAttempts: ClosedRange<Int> = 1...100
  /// A step's retry `backoff` factor.
  public static let retryBackoff: ClosedRange<Double> = 1...10
  /// `authflow run --jobs`.
  public static let jobs: ClosedRange<Int> = 1...256
  /// `monitor.jitter` (`authflow monitor --jitter`), in percent of the interval.
  public static let monitorJitterPercent: ClosedRange<Int> = 0...50
  /// `monitor.concurrency` (`authflow monitor --concurrency`): scenarios run at once.
  public static let monitorConcurrency: ClosedRange<Int> = 1...64
  /// `monitor.schedules`: at most this many.
  public static let monitorSchedules = 1000
  /// `authflow monitor --history`: the runs kept per scenario for the status page.
  public static let monitorHistory: ClosedRange<Int> = 1...1000
  /// `authflow run --rate-limit-retries`.
  public static let rateLimitRetries: ClosedRange<Int> = 0...20
  /// `authflow mock --port` (0: any free port).
  public static let port: ClosedRange<Int> = 0...65_535
  /// Every integer of a mock fixture (lifetimes and limits in seconds or counts, `updated_at` in
  /// seconds since 1970): 0 to the start of the year 2100, so sums of them never overflow.
  public static let fixtureInteger: ClosedRange<Int> = 0...4_102_444_800
  /// The largest message an SMTP receiver accepts (`inbox.smtp.max_message_bytes`,
  /// `authflow inbox --max-message-bytes`): 1 KiB to 64 MiB.
  public static let inboxMessageBytes: ClosedRange<Int> = 1024...(64 * 1024 * 1024)
  /// The requests of a tenant's `login_pages.app` login.
  public static let appLoginRequests: ClosedRange<Int> = 1...8
  /// A tenant profile's `rate_limit.requests_per_minute`.
  public static let requestsPerMinute: ClosedRange<Int> = 1...1_000_000
  /// `authflow bench --iterations` and `--corpus-size`.
  public static let benchCount: ClosedRange<Int> = 1...1_000_000
  /// `authflow bench --samples`.
  public static let benchSamples: ClosedRange<Int> = 1...1_000
  /// `authflow bench --workers`.
  public static let benchWorkers: ClosedRange<Int> = 1...256
  /// `authflow bench --duration` (seconds per row).
  public static let benchDuration: Duration = .seconds(600)

  // MARK: Resources

  /// The largest YAML file read (scenario, `authflow.yaml`, mock fixture): 4 MiB.
  public static let fileBytes = 4 * 1024 * 1024
  /// The largest JSON report `authflow report merge` reads: 256 MiB (a run of thousands of
  /// scenarios with every step's result and exchanges stays well under it).
  public static let reportFileBytes = 256 * 1024 * 1024
  /// The most YAML nodes one document may expand to, aliases counted as the nodes they repeat.
  public static let yamlNodes = 1_000_000
  /// The deepest nesting of YAML lists and mappings.
  public static let yamlDepth = 64
  /// The most characters one `${{ … }}` expression may have.
  public static let expressionLength = 8 * 1024
  /// The deepest nesting of an expression (parentheses, operators, calls, lists).
  public static let expressionDepth = 64
  /// The most instances one `matrix` may expand to (the product of its axes' lengths).
  public static let matrixInstances = 1_000
  /// The most steps (and cleanup steps) in one scenario.
  public static let stepsPerScenario = 20_000

  // MARK: Regular expressions

  /// The most characters of a regular expression pattern.
  public static let regexPatternLength = 1_000
  /// The most characters of a text a regular expression is matched against: 1 MiB.
  public static let regexInputLength = 1024 * 1024
  /// The largest count in a counted repetition (`{m,n}`).
  public static let regexRepetition = 1_000
}
