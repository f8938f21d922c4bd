/// One row of the benchmark table: a measure, its samples and how its median compares with the
/// target.
public struct BenchmarkResult: Sendable, Codable {
  /// How the row came out.
  public enum Verdict: String, Sendable, Codable {
    /// The median meets the target.
    case pass
    /// The median misses the target.
    case miss
    /// Measured for information; there is no target.
    case info
    /// The measure could not be taken (a child process failed, a flow did not pass, …).
    case error
  }

  /// A stable identifier (`validate_one_file`), for JSON consumers.
  public var id: String
  /// What is measured, as the table shows it.
  public var measure: String
  /// The unit of the samples (`ms`, `flows/s`, `MB`).
  public var unit: String
  /// One value per repetition (a process run, a timed round of flows).
  public var samples: [Double]
  /// How much work the samples cover in all (processes run, flows completed).
  public var iterations: Int
  public var target: BenchmarkTarget?
  /// A remark shown under the table (per-flow latency, the workers used, …).
  public var note: String?
  /// Why the measure could not be taken.
  public var failure: String?
  /// A login-flow row's physical limit: the signing rate ÷ the signatures a flow cost (counted).
  public var limit: FlowLimit?

  public init(
    id: String, measure: String, unit: String, samples: [Double], iterations: Int, target: BenchmarkTarget?,
    note: String? = nil, failure: String? = nil
  ) {
    self.id = id
    self.measure = measure
    self.unit = unit
    self.samples = samples
    self.iterations = iterations
    self.target = target
    self.note = note
    self.failure = failure
  }

  /// A row for a measure that failed.
  public static func failed(
    id: String, measure: String, unit: String, target: BenchmarkTarget?, reason: String
  ) -> BenchmarkResult {
    BenchmarkResult(
      id: id, measure: measure, unit: unit, samples: [], iterations: 0, target: target, failure: reason)
  }

  public var statistics: SampleStatistics? { SampleStatistics(samples) }

  public var verdict: Verdict {
    guard failure == nil, let statistics else { return .error }
    guard let target else { return .info }
    guard let value = measuredAgainstTarget(median: statistics.median) else { return .error }
    return target.isMet(by: value) ? .pass : .miss
  }

  /// What the target judges: the median, or for a share-of-limit target the median's share of
  /// ``limit`` (nil without a limit).
  private func measuredAgainstTarget(median: Double) -> Double? {
    target?.direction == .atLeastShareOfLimit ? limit?.share(of: median) : median
  }

  /// The median as a share of ``limit`` (0.25 = 25 %).
  public var shareOfLimit: Double? {
    guard failure == nil, let limit, let statistics else { return nil }
    return limit.share(of: statistics.median)
  }

  /// The median against the target, above 1 when better than the target.
  public var ratio: Double? {
    guard failure == nil, let target, let statistics, let value = measuredAgainstTarget(median: statistics.median)
    else { return nil }
    return target.ratio(of: value)
  }
}
