public import AuthFlowResults
public import Foundation
public import Prometheus
import Synchronization

/// The monitor's metrics, in the Prometheus text format (docs/monitor.md lists them). Their labels
/// are names only — scenario, step id, action, tenant, result — taken from the scenario files and
/// `authflow.yaml`, never a value a run produced, so their number is bounded by the scenario set.
public final class MonitorMetrics: Sendable {
  public let registry: PrometheusCollectorRegistry

  /// The series of one scenario on one tenant, so that a reload that drops it removes them.
  private enum Owned {
    case counter(Counter)
    case gauge(Gauge)
    case histogram(DurationHistogram)

    var identifier: ObjectIdentifier {
      switch self {
      case .counter(let metric): ObjectIdentifier(metric)
      case .gauge(let metric): ObjectIdentifier(metric)
      case .histogram(let metric): ObjectIdentifier(metric)
      }
    }
  }

  private let owned = Mutex<[String: [ObjectIdentifier: Owned]]>([:])

  private func own(_ metric: Owned, scenario: String, tenant: String) {
    owned.withLock { $0[scenario + "\u{0}" + tenant, default: [:]][metric.identifier] = metric }
  }

  private func counter(
    _ name: String, _ help: String, _ labels: [(String, String)], scenario: String, tenant: String
  )
    -> Counter
  {
    let metric = registry.makeCounter(descriptor: Self.descriptor(name, help), labels: labels)
    own(.counter(metric), scenario: scenario, tenant: tenant)
    return metric
  }

  private func gauge(
    _ name: String, _ help: String, _ labels: [(String, String)], scenario: String, tenant: String
  )
    -> Gauge
  {
    let metric = registry.makeGauge(descriptor: Self.descriptor(name, help), labels: labels)
    own(.gauge(metric), scenario: scenario, tenant: tenant)
    return metric
  }

  private func histogram(
    _ name: String, _ help: String, _ labels: [(String, String)], buckets: [Duration], scenario: String,
    tenant: String
  ) -> DurationHistogram {
    let metric = registry.makeDurationHistogram(
      descriptor: Self.descriptor(name, help), labels: labels, buckets: buckets)
    own(.histogram(metric), scenario: scenario, tenant: tenant)
    return metric
  }

  /// Removes every series of `scenario` on `tenant` (a reload dropped it, or renamed its label),
  /// so that Prometheus sees them go rather than keep their last value.
  public func forget(scenario: String, tenant: String) {
    let metrics = owned.withLock { $0.removeValue(forKey: scenario + "\u{0}" + tenant) } ?? [:]
    for metric in metrics.values {
      switch metric {
      case .counter(let counter): registry.unregisterCounter(counter)
      case .gauge(let gauge): registry.unregisterGauge(gauge)
      case .histogram(let histogram): registry.unregisterDurationHistogram(histogram)
      }
    }
  }

  /// Seconds: a login on a loopback mock takes milliseconds, a real tenant's a second or more.
  static let scenarioBuckets: [Duration] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120].map { .seconds($0) }
  static let stepBuckets: [Duration] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30].map {
    .seconds($0)
  }

  static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
  }

  public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
    self.registry = registry
  }

  /// The result label of a run: `passed`, `failed`, `environment` (the tenant could not be reached
  /// or misbehaved), `skipped`; nil for a run the monitor itself cut short (it was stopping).
  static func result(_ status: Status) -> String? {
    switch status {
    case .passed: "passed"
    case .failed: "failed"
    case .error: "environment"
    case .skipped: "skipped"
    case .interrupted: nil
    }
  }

  /// Records one finished run of `scenario` (its label) on `tenant`.
  public func record(_ report: ScenarioReport, scenario: String, tenant: String, finishedAt: Date) {
    guard let result = Self.result(report.status) else { return }
    let labels = [("scenario", scenario), ("tenant", tenant)]
    counter(
      "authflow_runs_total", "Runs of a scenario on a tenant, by result (passed, failed, environment, skipped).",
      labels + [("result", result)], scenario: scenario, tenant: tenant
    ).increment()
    // A skip says nothing of the tenant's health: the last verdict stays.
    guard report.status != .skipped else { return }
    let passed = report.status == .passed
    gauge(
      "authflow_scenario_success", "1 when the scenario's last run on the tenant passed, else 0.", labels,
      scenario: scenario, tenant: tenant
    ).set(to: passed ? 1 : 0)
    histogram(
      "authflow_scenario_duration_seconds", "How long a run of the scenario took.", labels,
      buckets: Self.scenarioBuckets, scenario: scenario, tenant: tenant
    ).record(report.duration)
    gauge(
      "authflow_scenario_last_run_timestamp_seconds",
      "When the scenario's last run on the tenant finished (Unix time).", labels, scenario: scenario, tenant: tenant
    ).set(to: finishedAt.timeIntervalSince1970)
    if passed {
      gauge(
        "authflow_scenario_last_success_timestamp_seconds", "When the scenario last passed on the tenant (Unix time).",
        labels, scenario: scenario, tenant: tenant
      ).set(to: finishedAt.timeIntervalSince1970)
    }
    for step in report.steps where step.status == .passed || step.status == .failed || step.status == .error {
      histogram(
        "authflow_step_duration_seconds",
        "How long a step took (passed, failed or environment error; skipped steps are not counted).",
        labels + [("step", step.id), ("action", step.action)], buckets: Self.stepBuckets, scenario: scenario,
        tenant: tenant
      ).record(step.duration)
    }
  }

  /// How often the scenario is scheduled on the tenant (for "has not run lately" alerts).
  public func recordInterval(scenario: String, tenant: String, interval: Duration) {
    gauge(
      "authflow_scenario_interval_seconds", "The scenario's scheduled interval on the tenant.",
      [("scenario", scenario), ("tenant", tenant)], scenario: scenario, tenant: tenant
    ).set(to: interval.seconds)
  }

  /// The tenant's signing keys: how many, and when the set (by key ids and keys) last changed.
  public func recordKeys(tenant: String, count: Int, changedAt: Date?) {
    registry.makeGauge(
      descriptor: Self.descriptor("authflow_tenant_jwks_keys", "Signing keys in the tenant's JWKS at its last read."),
      labels: [("tenant", tenant)]
    ).set(to: Double(count))
    if let changedAt {
      registry.makeGauge(
        descriptor: Self.descriptor(
          "authflow_tenant_jwks_last_change_timestamp_seconds",
          "When the monitor saw the tenant's key set change (Unix time; its first read counts)."),
        labels: [("tenant", tenant)]
      ).set(to: changedAt.timeIntervalSince1970)
    }
  }

  /// Seconds until the newest token of `kind` (`id`, `access`) the tenant issued expires.
  public func recordTokenExpiry(tenant: String, kind: String, seconds: Double) {
    registry.makeGauge(
      descriptor: Self.descriptor(
        "authflow_tenant_token_expiry_seconds",
        "Seconds until the newest ID or access token the tenant issued expires (negative: expired)."),
      labels: [("tenant", tenant), ("token", kind)]
    ).set(to: seconds)
  }

  /// The rate-limit budget the tenant's `X-RateLimit-*` headers leave.
  public func recordRateLimit(tenant: String, remaining: Int, limit: Int?) {
    registry.makeGauge(
      descriptor: Self.descriptor(
        "authflow_tenant_rate_limit_remaining",
        "Requests the tenant's X-RateLimit headers leave in the current window (least of its endpoints)."),
      labels: [("tenant", tenant)]
    ).set(to: Double(remaining))
    if let limit {
      registry.makeGauge(
        descriptor: Self.descriptor(
          "authflow_tenant_rate_limit_limit", "The tenant's X-RateLimit-Limit on that endpoint."),
        labels: [("tenant", tenant)]
      ).set(to: Double(limit))
    }
  }

  /// The scenario set and its reloads.
  public func recordLoad(targets: Int, successful: Bool, at date: Date) {
    registry.makeCounter(
      descriptor: Self.descriptor(
        "authflow_monitor_reloads_total", "Loads of the scenario files (at start and on SIGHUP), by result."),
      labels: [("result", successful ? "success" : "failure")]
    ).increment()
    registry.makeGauge(
      descriptor: Self.descriptor(
        "authflow_monitor_config_last_reload_successful",
        "1 when the last load of the scenario files succeeded (the running set is the new one), else 0.")
    ).set(to: successful ? 1 : 0)
    if successful {
      registry.makeGauge(
        descriptor: Self.descriptor(
          "authflow_monitor_config_last_reload_success_timestamp_seconds",
          "When the running scenario set was loaded (Unix time).")
      ).set(to: date.timeIntervalSince1970)
      registry.makeGauge(
        descriptor: Self.descriptor("authflow_monitor_scenarios", "Scenario × tenant pairs the monitor runs.")
      )
      .set(to: Double(targets))
    }
  }

  /// Runs in flight now.
  public func recordInFlight(_ count: Int) {
    registry.makeGauge(descriptor: Self.descriptor("authflow_monitor_runs_in_flight", "Runs in flight.")).set(
      to: Double(count))
  }

  /// The exposition text.
  public func exposition() -> String {
    registry.emitToString()
  }
}
