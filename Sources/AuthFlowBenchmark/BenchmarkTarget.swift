/// A DESIGN §7 target: a bound a measure's median must stay under (durations, memory) or reach
/// (throughputs).
public struct BenchmarkTarget: Sendable, Hashable, Codable {
  /// Which side of the bound passes.
  public enum Direction: String, Sendable, Hashable, Codable {
    /// The median must be at most the bound (lower is better).
    case atMost = "at_most"
    /// The median must be at least the bound (higher is better).
    case atLeast = "at_least"
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

  /// Whether `value` meets the target.
  public func isMet(by value: Double) -> Bool {
    switch direction {
    case .atMost: value <= bound
    case .atLeast: value >= bound
    }
  }

  /// How `value` compares with the bound, as a factor where above 1 is better than the target
  /// (`2.0` = twice as good, `0.5` = half as good).
  public func ratio(of value: Double) -> Double {
    switch direction {
    case .atMost: value > 0 ? bound / value : .infinity
    case .atLeast: bound > 0 ? value / bound : .infinity
    }
  }
}
