/// How much work each measure does. Every loop is bounded both by a count and by time.
public struct BenchmarkOptions: Sendable {
  /// The authflow binary the cold-process rows run (normally the running one).
  public var executable: String
  /// Child processes per cold-process row (`validate` one file, `run` one scenario).
  public var processSamples: Int
  /// Repetitions of the 10,000-file validation and of the 1,000-scenario run.
  public var largeSamples: Int
  /// Files validated together.
  public var validateFileCount: Int
  /// Scenarios in the peak-memory run (the docs/design.md §7 row).
  public var memoryScenarioCount: Int
  /// The larger runs measured beside it, to show that peak memory does not grow with the run
  /// (10,000 and 100,000; `--quick` keeps 10,000). Each is run once.
  public var largerMemoryScenarioCounts: [Int]
  /// Upper bound on the flows of each login-flow row.
  public var flowIterations: Int
  /// Upper bound on the time of each login-flow row (warm-up excluded).
  public var flowDuration: Duration
  /// Timed rounds a login-flow row is split into; each round gives one throughput sample.
  public var flowRounds: Int
  /// Upper bound on the signatures of each signing loop of a signing-rate row.
  public var signingIterations: Int
  /// Concurrent workers of the concurrent login-flow row.
  public var workers: Int
  /// `--jobs` of the 1,000-scenario run.
  public var runJobs: Int
  /// Requests of each pacing row's burst.
  public var pacingRequests: Int
  /// Login flows each child of the `--jobs` scaling rows runs.
  public var jobsFlowCount: Int
  /// The `--jobs` compared with `--jobs 1` in the scaling rows.
  public var scalingJobs: Int
  /// Pairs of child runs (`--jobs 1`, then `--jobs N`) of the scaling rows; one ratio each.
  public var jobsRounds: Int
  /// Which groups of rows to measure (`authflow bench --only`); all by default.
  public var groups: Set<BenchmarkGroup> = BenchmarkGroup.defaults
  /// How long the soak watches `authflow monitor` (after its warm-up).
  public var soakDuration: Duration = .seconds(3600)

  public init(executable: String) {
    self.executable = executable
    processSamples = 20
    largeSamples = 3
    validateFileCount = 10_000
    memoryScenarioCount = 1_000
    largerMemoryScenarioCounts = [10_000, 100_000]
    flowIterations = 20_000
    flowDuration = .seconds(10)
    flowRounds = 5
    signingIterations = 20_000
    workers = 8
    runJobs = 4
    pacingRequests = 200
    jobsFlowCount = 200
    scalingJobs = 4
    jobsRounds = 5
  }

  /// A short run: fewer samples and rounds, same sizes (the targets are stated for them).
  public static func quick(executable: String) -> BenchmarkOptions {
    var options = BenchmarkOptions(executable: executable)
    options.processSamples = 5
    options.largeSamples = 1
    options.largerMemoryScenarioCounts = [10_000]
    options.flowIterations = 2_000
    options.flowDuration = .seconds(2)
    options.flowRounds = 3
    options.pacingRequests = 100
    options.jobsFlowCount = 100
    options.jobsRounds = 3
    options.signingIterations = 2_000
    return options
  }
}

/// The groups of rows `authflow bench --only` can pick.
public enum BenchmarkGroup: String, Sendable, CaseIterable {
  /// The cold-process rows: validate one file, run one scenario, validate 10,000 files, the
  /// 1,000-scenario run's memory and time.
  case process
  /// The RSA signing rates and the in-process login-flow rows.
  case login
  /// `--jobs N` against `--jobs 1` in child runs.
  case jobs
  /// The rate-limit rows, unpaced and paced.
  case pacing
  /// `authflow monitor` for ``BenchmarkOptions/soakDuration`` (an hour): memory and descriptors
  /// flat. Only when named: it is not in the default set.
  case soak

  /// The groups run without `--only`: all but the soak.
  public static var defaults: Set<BenchmarkGroup> { Set(allCases.filter { $0 != .soak }) }
}
