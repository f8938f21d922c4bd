/// A docs/design.md §7 target: a bound a measure's median must stay under (durations, memory) or reach
/// (ratios), or a share of the row's physical limit its median must reach (login flows: the signing
/// rate measured in the same run ÷ the signatures a flow costs).
public struct BenchmarkTarget: Sendable, Hashable, Codable {
  /// Which side of the bound passes.
  public enum Direction: String, Sendable, Hashable, Codable {
    /// The median must be at most the bound (lower is better).
    case atMost = "at_most"
    /// The median must be at least the bound (higher is better).
    case atLeast = "at_least"
    /// The median must be at least `bound` (0.40 = 40 %) of the row's ``FlowLimit``.
    case atLeastShareOfLimit = "at_least_share_of_limit"
  }

  public var direction: Direction
  public var bound: Double

  public init(_ direction: Direction, _ bound: Double) {
    self.direction = direction
    self.bound = bound
  }

  /// Lower is better: the median must be at most `bound`.
  public static func atMost(_ bound: Double) -> BenchmarkTarget { BenchmarkTarget(.atMost, bound) }

  /// Higher is better: the median must be at least `bound`.
  public static func atLeast(_ bound: Double) -> BenchmarkTarget { BenchmarkTarget(.atLeast, bound) }

  /// The median must reach `share` (0.40 = 40 %) of the row's limit.
  public static func atLeastShareOfLimit(_ share: Double) -> BenchmarkTarget {
    BenchmarkTarget(.atLeastShareOfLimit, share)
  }

  /// Whether `value` meets the target (for a share of the limit, `value` is that share).
  public func isMet(by value: Double) -> Bool {
    switch direction {
    case .atMost: value <= bound
    case .atLeast, .atLeastShareOfLimit: value >= bound
    }
  }

  /// How `value` compares with the bound, as a factor where above 1 is better than the target
  /// (`2.0` = twice as good, `0.5` = half as good).
  public func ratio(of value: Double) -> Double {
    switch direction {
    case .atMost: value > 0 ? bound / value : .infinity
    case .atLeast, .atLeastShareOfLimit: bound > 0 ? value / bound : .infinity
    }
  }
}
