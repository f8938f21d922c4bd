/// The benchmark report as a text table: one row per measure with its median, p90, range,
/// iterations, target and verdict, then the notes and failures.
public struct BenchmarkTable: Sendable {
  public var report: BenchmarkReport

  public init(_ report: BenchmarkReport) {
    self.report = report
  }

  static let headers = ["measure", "median", "p90", "min – max", "n", "target", "vs target", "result"]

  public func render() -> String {
    var rows = [Self.headers]
    for result in report.results { rows.append(cells(for: result)) }
    let widths = Self.headers.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    var lines: [String] = [BenchmarkMessages.header(report)]
    if report.configuration == .debug { lines.append(BenchmarkMessages.debugWarning) }
    lines.append("")
    for (index, row) in rows.enumerated() {
      let padded = row.enumerated().map { column, cell in
        column == 0 ? cell.padding(toLength: widths[column]) : cell.leftPadding(toLength: widths[column])
      }
      lines.append(padded.joined(separator: "  "))
      if index == 0 { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
    }
    let notes = report.results.flatMap { result -> [String] in
      if let failure = result.failure { return ["\(result.measure): error: \(failure)"] }
      var lines = result.note.map { ["\(result.measure): \($0)"] } ?? []
      if let limit = result.limit, let median = result.statistics?.median {
        lines.append("\(result.measure): \(limit.describe(median: median))")
      }
      return lines
    }
    if !notes.isEmpty { lines += [""] + notes }
    return lines.joined(separator: "\n")
  }

  func cells(for result: BenchmarkResult) -> [String] {
    let unit = result.unit
    let target = result.target.map { target in
      switch target.direction {
      case .atMost: "≤ " + formatBound(target.bound) + " " + unit
      case .atLeast: "≥ " + formatBound(target.bound) + " " + unit
      case .atLeastShareOfLimit: "≥ " + formatBound(target.bound * 100) + " % of limit"
      }
    }
    guard let statistics = result.statistics, result.failure == nil else {
      return [result.measure, "-", "-", "-", "0", target ?? "-", "-", result.verdict.rawValue]
    }
    let ratio = result.ratio.map { format($0) + "×" }
    return [
      result.measure, format(statistics.median) + " " + unit, format(statistics.p90) + " " + unit,
      format(statistics.min) + " – " + format(statistics.max), result.iterations.formatted(), target ?? "-",
      ratio ?? "-", result.verdict.rawValue,
    ]
  }
}

/// The texts around the table.
enum BenchmarkMessages {
  static func header(_ report: BenchmarkReport) -> String {
    "authflow bench — \(report.configuration.rawValue) build, \(report.processorCount) cores"
      + (report.quick ? ", quick run" : "")
  }

  static let debugWarning =
    "warning: this is a debug build; its figures are not the product's speed. Build with `swift build -c release`."
}

/// A figure with precision that suits its size: `1,234`, `123`, `12.3`, `1.23`.
func format(_ value: Double) -> String {
  guard value.isFinite else { return value.isNaN ? "-" : "∞" }
  let magnitude = abs(value)
  if magnitude >= 1_000 { return Int(value.rounded()).formatted() }
  if magnitude >= 100 { return String(Int(value.rounded())) }
  if magnitude >= 10 { return fixed(value, digits: 1) }
  return fixed(value, digits: 2)
}

/// A target's bound: whole numbers without decimals (`≤ 20 ms`).
func formatBound(_ value: Double) -> String {
  value.rounded() == value && abs(value) < 1e15 ? Int(value).formatted() : format(value)
}

private func fixed(_ value: Double, digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = Int((abs(value) * scale).rounded())
  let whole = scaled / Int(scale)
  let fraction = String(scaled % Int(scale))
  let padded = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
  return (value < 0 ? "-" : "") + "\(whole).\(padded)"
}

extension String {
  fileprivate func padding(toLength length: Int) -> String {
    self + String(repeating: " ", count: max(0, length - count))
  }

  fileprivate func leftPadding(toLength length: Int) -> String {
    String(repeating: " ", count: max(0, length - count)) + self
  }
}
