/// docs/design.md §7: the speed authflow must reach on 2 cores, as ratios to the limits measured in the
/// same run where there is a physical limit.
public enum DesignTargets {
  /// `authflow validate` of one file, cold process: at most 10 ms.
  public static let validateOneFile = BenchmarkTarget.atMost(10)
  /// One scenario run, embedded mock start included: at most 50 ms.
  public static let runOneScenario = BenchmarkTarget.atMost(50)
  /// Code+PKCE login flows one at a time: at least 40 % of the one-core signing rate ÷ the
  /// signatures per flow.
  public static let sequentialFlows = BenchmarkTarget.atLeastShareOfLimit(0.40)
  /// The same, concurrently: at least 50 % of the all-core signing rate ÷ the signatures per flow.
  public static let concurrentFlows = BenchmarkTarget.atLeastShareOfLimit(0.50)
  /// `--jobs 4` over `--jobs 1` on 2 cores: at least 1.8×.
  public static let jobsScaling = BenchmarkTarget.atLeast(1.8)
  /// Validating 10,000 scenario files: at most 1 s.
  public static let validateManyFiles = BenchmarkTarget.atMost(1_000)
  /// Peak memory of a 1,000-, 10,000- and 100,000-scenario run: at most 60 MB, the same for each
  /// size.
  public static let peakMemory = BenchmarkTarget.atMost(60)
}
