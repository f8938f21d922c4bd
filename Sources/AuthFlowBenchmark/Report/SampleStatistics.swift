/// Order statistics of a set of samples: medians and percentiles are what a noisy shared machine
/// lets one quote, not means.
public struct SampleStatistics: Sendable, Hashable, Codable {
  public var count: Int
  public var median: Double
  public var p90: Double
  public var min: Double
  public var max: Double

  /// Nil when there are no samples.
  public init?(_ samples: [Double]) {
    let sorted = samples.filter { !$0.isNaN }.sorted()
    guard let first = sorted.first, let last = sorted.last else { return nil }
    count = sorted.count
    median = Self.percentile(0.5, ofSorted: sorted)
    p90 = Self.percentile(0.9, ofSorted: sorted)
    min = first
    max = last
  }

  /// The `fraction` percentile of sorted samples, interpolating linearly between neighbours
  /// (the median of an even count is the mean of the middle two).
  static func percentile(_ fraction: Double, ofSorted sorted: [Double]) -> Double {
    guard sorted.count > 1 else { return sorted.first ?? .nan }
    let position = fraction * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = Swift.min(lower + 1, sorted.count - 1)
    let weight = position - Double(lower)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * weight
  }
}
