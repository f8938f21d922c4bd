/// Durations as scenarios write them: `90s`, `5m`, `2h`, `250ms`, or a bare number of seconds.
///
/// Every conversion is checked: a duration longer than the limit the caller gives (by default
/// ``InputLimits/longestDuration``) is not a duration, so no caller converts an unbounded number.
public enum DurationText {
  /// What reading a duration found.
  public enum Reading: Sendable, Equatable {
    /// A duration within the limit.
    case duration(Duration)
    /// A duration, but longer than the limit (or too long to hold at all).
    case tooLong(seconds: Double)
    /// Not a duration.
    case invalid
  }

  /// Reads a duration from text, checked against `maximum`.
  public static func read(_ text: String, maximum: Duration = InputLimits.longestDuration) -> Reading {
    guard let seconds = seconds(in: text) else { return .invalid }
    return checked(seconds, maximum: maximum)
  }

  /// Reads a duration from a value (a number of seconds or a duration string), checked against `maximum`.
  public static func read(_ value: Value, maximum: Duration = InputLimits.longestDuration) -> Reading {
    switch value.unwrapped {
    case .int(let seconds) where seconds >= 0: return checked(Double(seconds), maximum: maximum)
    case .double(let seconds) where seconds >= 0 && seconds.isFinite: return checked(seconds, maximum: maximum)
    case .string(let text): return read(text, maximum: maximum)
    default: return .invalid
    }
  }

  /// Parses a duration no longer than `maximum`; nil when the text is not one or is too long.
  public static func parse(_ text: String, maximum: Duration = InputLimits.longestDuration) -> Duration? {
    if case .duration(let duration) = read(text, maximum: maximum) { return duration }
    return nil
  }

  /// Parses a duration no longer than `maximum` from a value: a number of seconds or a duration
  /// string; nil when it is neither or is too long.
  public static func parse(_ value: Value, maximum: Duration = InputLimits.longestDuration) -> Duration? {
    if case .duration(let duration) = read(value, maximum: maximum) { return duration }
    return nil
  }

  /// A number of seconds as a duration, when it is finite, not negative and at most `maximum`.
  public static func duration(seconds: Double, maximum: Duration = InputLimits.longestDuration) -> Duration? {
    guard seconds.isFinite, seconds >= 0 else { return nil }
    if case .duration(let duration) = checked(seconds, maximum: maximum) { return duration }
    return nil
  }

  /// The amount of seconds `text` spells, unchecked against any limit: finite and not negative.
  private static func seconds(in text: String) -> Double? {
    let trimmed = text.trimmingWhitespace()
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
      let number = trimmed.dropLast(suffix.count)
      guard !number.isEmpty, let amount = Double(number), amount >= 0, amount.isFinite else { continue }
      let seconds = amount * scale
      return seconds.isFinite ? seconds : nil
    }
    if let amount = Double(trimmed), amount >= 0, amount.isFinite { return amount }
    return nil
  }

  /// `seconds` in whole milliseconds, when within `maximum` (whose milliseconds fit an Int64).
  private static func checked(_ seconds: Double, maximum: Duration) -> Reading {
    guard seconds <= maximum.seconds else { return .tooLong(seconds: seconds) }
    return .duration(.milliseconds(Int64((seconds * 1000).rounded())))
  }

  /// `1.25s`, `120ms`, `2m05s` — for reports.
  public static func format(_ duration: Duration) -> String {
    let milliseconds =
      Double(duration.components.seconds) * 1000
      + Double(duration.components.attoseconds) / 1e15
    if milliseconds < 1000 { return "\(Int(milliseconds.rounded()))ms" }
    let seconds = milliseconds / 1000
    if seconds < 60 { return String(format2: seconds) + "s" }
    let minutes = Int(seconds) / 60
    let rest = Int(seconds) % 60
    return "\(minutes)m" + (rest < 10 ? "0" : "") + "\(rest)s"
  }

  /// `24h`, `10000h`, `90s` — a limit as a person writes it.
  public static func describe(_ duration: Duration) -> String {
    let seconds = duration.components.seconds
    if seconds % 3600 == 0 && seconds > 0 { return "\(seconds / 3600)h" }
    if seconds % 60 == 0 && seconds > 0 { return "\(seconds / 60)m" }
    return "\(seconds)s"
  }
}

extension Duration {
  /// The duration in seconds, as a Double.
  public var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

extension String {
  fileprivate init(format2 value: Double) {
    let scaled = Int((value * 100).rounded())
    let fraction = scaled % 100
    self = "\(scaled / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
  }

  /// The string without leading and trailing spaces, tabs and newlines.
  public func trimmingWhitespace() -> String {
    var view = Substring(self)
    while let first = view.first, first.isWhitespace { view = view.dropFirst() }
    while let last = view.last, last.isWhitespace { view = view.dropLast() }
    return String(view)
  }
}

extension Duration {
  /// The duration in whole nanoseconds, saturating: past `Int64` nanoseconds (about 292 years) it
  /// is `Int64.max`, and a negative duration is 0 — for timers that take nanoseconds and trap on
  /// overflow (NIO's `TimeAmount`).
  public var saturatingNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? 0 : .max }
    let (total, overflowSum) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflowSum ? .max : max(0, total)
  }
}
