import AuthFlowCore
import AuthFlowResults
import Foundation
import Hummingbird

/// The monitor's HTTP endpoints (docs/monitor.md):
///
/// - `GET /metrics`: every metric, in the Prometheus text format;
/// - `GET /probe?scenario=NAME[&tenant=T]`: one run now, and that run's metrics only (the
///   blackbox_exporter pattern); bounded by the scraper's `X-Prometheus-Scrape-Timeout-Seconds`;
/// - `GET /`: the status page; `GET /report?id=ID`: a scenario's latest run, drawn;
/// - `GET /api/results`: the same as JSON;
/// - `GET /healthz` (the process serves) and `GET /readyz` (scenarios loaded, not stopping).
struct MonitorRoutes: Sendable {
  let monitor: Monitor

  static let exposition = "text/plain; version=0.0.4; charset=utf-8"

  func router() -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.get("metrics") { _, _ in
      monitor.watch.refresh()
      return Self.text(monitor.metrics.exposition(), contentType: Self.exposition)
    }
    router.get("probe") { request, _ in await probe(request) }
    router.get("/") { _, _ in
      Self.html(StatusPage.render(monitor.results.status))
    }
    router.get("report") { request, _ in
      guard let id = request.uri.queryParameters.get("id"), let entry = monitor.results.entry(id),
        let page = StatusPage.report(entry)
      else { return Self.text("no run of that scenario yet\n", status: .notFound) }
      // The report carries its own Content-Security-Policy (its inline script and style, by hash).
      return Self.html(page, policy: nil)
    }
    router.get("api/results") { _, _ in
      Self.text(monitor.results.json().jsonText(pretty: true) + "\n", contentType: "application/json")
    }
    router.get("healthz") { _, _ in Self.text("ok\n") }
    router.get("readyz") { _, _ in
      monitor.isReady ? Self.text("ready\n") : Self.text("not ready\n", status: .serviceUnavailable)
    }
    return router
  }

  private func probe(_ request: Request) async -> Response {
    let query = request.uri.queryParameters
    guard let scenario = query.get("scenario"), !scenario.isEmpty else {
      return Self.text("give scenario=NAME (and tenant=NAME with several tenants)\n", status: .badRequest)
    }
    // The scraper's own deadline, less a little to answer in time (blackbox_exporter's rule).
    let scrape = request.headers.first { $0.name.canonicalName == "x-prometheus-scrape-timeout-seconds" }
      .flatMap { Double($0.value) }
    let limit = scrape.map { Duration.seconds(max(1, min($0 - 0.5, 3600))) } ?? monitor.configuration.probeTimeout
    let started = ContinuousClock.now
    switch await monitor.probe(scenario: scenario, tenant: query.get("tenant"), timeout: limit) {
    case .notFound(let why):
      return Self.text(why + "\n", status: .notFound)
    case .busy(let why):
      return Self.text(why + "\n", status: .tooManyRequests)
    case .ran(let report, let label, let tenant):
      let metrics = MonitorMetrics()
      metrics.record(report, scenario: label, tenant: tenant, finishedAt: Date())
      let success = report.status == .passed ? 1 : 0
      var text = metrics.exposition()
      text += "# HELP authflow_probe_success 1 when the probed scenario passed, else 0.\n"
      text += "# TYPE authflow_probe_success gauge\nauthflow_probe_success \(success)\n"
      text += "# HELP authflow_probe_duration_seconds How long the probe took.\n"
      text += "# TYPE authflow_probe_duration_seconds gauge\n"
      text += "authflow_probe_duration_seconds \((ContinuousClock.now - started).seconds)\n"
      return Self.text(text, contentType: Self.exposition)
    }
  }

  static func text(
    _ body: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8"
  ) -> Response {
    Response(
      status: status, headers: [.contentType: contentType, .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
  }

  static func html(_ page: String, policy: String? = StatusPage.contentSecurityPolicy) -> Response {
    var response = text(page, contentType: "text/html; charset=utf-8")
    if let policy { response.headers[.contentSecurityPolicy] = policy }
    response.headers[.xContentTypeOptions] = "nosniff"
    return response
  }
}
