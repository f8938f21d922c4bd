/// DESIGN §7: the speed authflow must reach, on 2 cores.
public enum DesignTargets {
  /// `authflow validate` of one file, cold process: at most 20 ms.
  public static let validateOneFile = BenchmarkTarget.atMost(20)
  /// One scenario run, embedded mock start included: at most 150 ms.
  public static let runOneScenario = BenchmarkTarget.atMost(150)
  /// Code+PKCE login flows one at a time: at least 500 per second.
  public static let sequentialFlows = BenchmarkTarget.atLeast(500)
  /// The same, concurrently: at least 2,000 per second.
  public static let concurrentFlows = BenchmarkTarget.atLeast(2_000)
  /// Validating 10,000 scenario files: at most 1 s.
  public static let validateManyFiles = BenchmarkTarget.atMost(1_000)
  /// Peak memory of a 1,000-scenario run: at most 60 MB.
  public static let peakMemory = BenchmarkTarget.atMost(60)
}
