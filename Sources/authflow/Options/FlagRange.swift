import ArgumentParser
import AuthFlowCore

/// Range checks of numeric flags against `InputLimits`; a flag out of range is a usage error
/// (exit 2) that names the flag and its range (docs/running.md lists them).
enum FlagRange {
  static func check(_ flag: String, _ value: Int, in range: ClosedRange<Int>) throws {
    guard range.contains(value) else { throw ValidationError(outOfRange(flag, value, range)) }
  }

  /// A duration flag: a duration, at most `maximum`.
  static func checkDuration(_ flag: String, _ text: String, maximum: Duration = InputLimits.longestDuration) throws {
    switch DurationText.read(text, maximum: maximum) {
    case .duration: return
    case .tooLong: throw ValidationError(durationTooLong(flag, text, maximum))
    case .invalid: throw ValidationError(notADuration(flag, text))
    }
  }

  /// A duration flag that must fall in `range`: the value, or a `ValidationError` naming the flag
  /// and its range.
  static func duration(_ flag: String, _ text: String, in range: ClosedRange<Duration>) throws -> Duration {
    let value: Duration
    switch DurationText.read(text, maximum: range.upperBound) {
    case .duration(let duration): value = duration
    case .tooLong: value = range.upperBound + .seconds(1)
    case .invalid: throw ValidationError(notADuration(flag, text))
    }
    guard range.contains(value) else {
      throw ValidationError(
        "\(flag) must be a duration from \(DurationText.describe(range.lowerBound)) to \(DurationText.describe(range.upperBound)) (got '\(text)')"
      )
    }
    return value
  }

  static func outOfRange(_ flag: String, _ value: Int, _ range: ClosedRange<Int>) -> String {
    "\(flag) must be from \(range.lowerBound) to \(range.upperBound) (got \(value))"
  }

  static func durationTooLong(_ flag: String, _ text: String, _ maximum: Duration) -> String {
    "\(flag) must be a duration from 0 to \(DurationText.describe(maximum)) (got '\(text)')"
  }

  static func notADuration(_ flag: String, _ text: String) -> String {
    "\(flag) must be a duration such as 10s or 1m (got '\(text)')"
  }
}
