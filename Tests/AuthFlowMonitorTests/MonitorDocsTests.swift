import Foundation
import Testing

/// docs/monitor.md's metric table, the alerting rules and the Grafana dashboard name the same
/// metrics the monitor exports: a renamed metric cannot leave a rule or a panel silently empty.
@Suite struct MonitorDocsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// `authflow_…` names in a text, with a histogram's `_bucket`, `_count` and `_sum` taken off.
  static func metricNames(in text: String) -> Set<String> {
    guard let pattern = try? NSRegularExpression(pattern: "authflow_[a-z_]+") else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    var names: Set<String> = []
    for match in pattern.matches(in: text, range: range) {
      guard let found = Range(match.range, in: text) else { continue }
      var name = String(text[found])
      for suffix in ["_bucket", "_count", "_sum"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
      names.insert(name)
    }
    return names
  }

  /// The metrics of docs/monitor.md's table (its first column).
  static func documented() throws -> Set<String> {
    let rows = try read("docs/monitor.md").split(separator: "\n").filter { $0.hasPrefix("| `authflow_") }
    return Set(rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) })
  }

  @Test func theRulesAndTheDashboardUseDocumentedMetrics() throws {
    let documented = try Self.documented()
    #expect(documented.count >= 15)
    for file in ["monitor/alerts.yml", "monitor/alerts.test.yml", "monitor/grafana-dashboard.json"] {
      let used = Self.metricNames(in: try Self.read(file))
      #expect(used.subtracting(documented).isEmpty, "\(file) uses \(used.subtracting(documented).sorted())")
    }
  }

  /// Every metric a real monitor exports is in the table (the service test hands its exposition).
  static func undocumented(in exposition: String) throws -> [String] {
    let exported = exposition.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map {
      String($0.split(separator: " ")[2])
    }
    let documented = try Self.documented()
    return exported.filter { !documented.contains($0) }
  }
}
