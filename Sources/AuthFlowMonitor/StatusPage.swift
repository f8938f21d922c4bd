import AuthFlowCore
import AuthFlowHTTP
import AuthFlowReporting
import AuthFlowResults
import Foundation

/// The status page at `/`: each scenario's latest verdict, when it ran, how long it took, the
/// strip of its last runs (oldest left), and a link to its latest run drawn as the HTML report
/// draws it. Every text is masked already (runs are redacted as they end) and escaped here; the
/// page fetches nothing and runs no script.
enum StatusPage {
  /// No script, no fetch; the style is inline.
  static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'"

  static func render(_ status: MonitorResults.Snapshot, now: Date = Date()) -> String {
    let h = MarkupEscaping.html
    var html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="refresh" content="30">
      <title>authflow monitor</title>
      <style>
      body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1b1f24}
      h1{font-size:1.3rem;margin:0 0 .3rem}
      .meta{color:#57606a;margin-bottom:1rem}
      table{border-collapse:collapse;width:100%}
      th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #d0d7de;vertical-align:top}
      th{font-weight:600;background:#f6f8fa}
      .passed{color:#1a7f37}.failed{color:#cf222e}.environment{color:#9a6700}.skipped,.never{color:#57606a}
      .strip,.when{white-space:nowrap}
      .strip span{display:inline-block;width:8px;height:16px;margin-right:2px;border-radius:2px;background:#d0d7de}
      .strip .passed{background:#2da44e}.strip .failed{background:#cf222e}.strip .environment{background:#d4a72c}
      .strip .skipped{background:#8c959f}.strip .interrupted{background:#d0d7de}
      .problem{color:#57606a;font-size:12px;max-width:40rem;overflow-wrap:anywhere}
      .warn{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem;margin-bottom:1rem;white-space:pre-wrap}
      </style></head><body>
      <h1>authflow monitor</h1>

      """
    let counts = Dictionary(grouping: status.entries) { word(for: $0.history.last?.status) }.mapValues(\.count)
    let summary = ["passed", "failed", "environment", "skipped", "never"].compactMap { key in
      counts[key].map { "\($0) \(key == "never" ? "not run yet" : key)" }
    }
    html += "<div class=\"meta\">\(h(summary.joined(separator: " · ")))"
    if let loaded = status.loadedAt { html += " · scenarios loaded \(h(MonitorResults.timestamp(loaded)))" }
    html += " · <a href=\"api/results\">JSON</a> · <a href=\"metrics\">metrics</a></div>\n"
    if let error = status.reloadError { html += "<pre class=\"warn\">\(h(error))</pre>\n" }
    html += "<table><thead><tr><th>Scenario</th><th>Tenant</th><th>Latest</th><th>Ran</th><th>Took</th>"
    html += "<th>Last runs</th></tr></thead><tbody>\n"
    for entry in status.entries {
      let last = entry.history.last
      let latest = word(for: last?.status)
      html += "<tr><td>"
      html +=
        entry.latest == nil
        ? h(entry.scenario) : "<a href=\"report?id=\(h(PercentEncoding.encode(entry.id)))\">\(h(entry.scenario))</a>"
      html += "<div class=\"problem\">\(h(entry.file))</div></td>"
      html += "<td>\(h(entry.tenant))</td>"
      html +=
        "<td class=\"\(latest)\">\(latest == "never" ? "not run yet" : latest)\(entry.running ? " (running)" : "")"
      if let problem = last?.problem, last?.status != .passed { html += "<div class=\"problem\">\(h(problem))</div>" }
      html += "</td><td class=\"when\">\(last.map { h(ago($0.startedAt, now: now)) } ?? "")</td>"
      html += "<td class=\"when\">\(last.map { h(DurationText.format($0.duration)) } ?? "")</td><td class=\"strip\">"
      for outcome in entry.history {
        let word = word(for: outcome.status)
        html +=
          "<span class=\"\(word)\" title=\"\(h(word + " " + MonitorResults.timestamp(outcome.startedAt)))\"></span>"
      }
      html += "</td></tr>\n"
    }
    html += "</tbody></table>\n</body></html>\n"
    return html
  }

  /// The latest run of one target, as `authflow run --report html:…` draws it.
  static func report(_ entry: MonitorResults.Entry) -> String? {
    guard let latest = entry.latest else { return nil }
    let run = RunReport(
      tenant: entry.tenant, startedAt: entry.history.last?.startedAt ?? Date(), duration: latest.duration,
      scenarios: [latest], interrupted: false)
    let reporter = HTMLReporter(
      spec: ReporterSpec(name: "html"), context: ReporterContext.live(secrets: SecretRegistry()))
    return ReportTextSink.collect { reporter.render(run, into: &$0) }
  }

  static func word(for status: Status?) -> String {
    guard let status else { return "never" }
    return MonitorMetrics.result(status) ?? status.rawValue
  }

  static func ago(_ date: Date, now: Date) -> String {
    let seconds = max(0, Int(now.timeIntervalSince(date)))
    if seconds < 60 { return "\(seconds)s ago" }
    if seconds < 3600 { return "\(seconds / 60)m ago" }
    return "\(seconds / 3600)h ago"
  }
}
