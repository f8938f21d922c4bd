/// Durations as scenarios write them: `90s`, `5m`, `2h`, `250ms`, or a bare number of seconds.
public enum DurationText {
  /// Parses a duration; nil when the text is not one.
  public static func parse(_ text: String) -> Duration? {
    let trimmed = text.trimmingWhitespace()
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
      let number = trimmed.dropLast(suffix.count)
      guard let amount = Double(number), amount >= 0, !number.isEmpty else { continue }
      return .milliseconds(Int64((amount * scale * 1000).rounded()))
    }
    if let amount = Double(trimmed), amount >= 0 { return .milliseconds(Int64((amount * 1000).rounded())) }
    return nil
  }

  /// Parses a duration from a value: a number of seconds or a duration string.
  public static func parse(_ value: Value) -> Duration? {
    switch value.unwrapped {
    case .int(let seconds) where seconds >= 0: return .seconds(seconds)
    case .double(let seconds) where seconds >= 0: return .milliseconds(Int64((seconds * 1000).rounded()))
    case .string(let text): return parse(text)
    default: return nil
    }
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
