public import AuthFlowRun
public import AuthFlowScenario

/// Everything `authflow monitor` is made from: the run it repeats (scenarios, tenants, selection,
/// transport, pacing) and how it serves and schedules it. The flags override `authflow.yaml`'s
/// `monitor:`.
public struct MonitorConfiguration: Sendable {
  /// The run each scheduled run repeats; its reporters are not used (the monitor serves its
  /// results), its console hears of loads, reloads and verdict changes.
  public var run: RunConfiguration
  /// Where `/metrics`, `/probe`, the status page and the API listen.
  public var host = "127.0.0.1"
  public var port = 9464
  /// `--interval`, `--jitter`, `--concurrency`: over `monitor:` of `authflow.yaml` when given.
  public var interval: Duration?
  public var jitterPercent: Int?
  public var concurrency: Int?
  /// The runs kept per scenario for the status page.
  public var history = 20
  /// How long a stopping monitor lets its runs finish before it cuts them short.
  public var grace: Duration = .seconds(30)
  /// The longest a `/probe` waits when the scraper says nothing of its own timeout.
  public var probeTimeout: Duration = .seconds(60)

  public init(run: RunConfiguration) {
    self.run = run
  }

  /// The schedule settings: `monitor:` with the flags over it.
  func profile(_ project: MonitorProfile) -> MonitorProfile {
    var profile = project
    if let interval { profile.interval = interval }
    if let jitterPercent { profile.jitterPercent = jitterPercent }
    if let concurrency { profile.concurrency = concurrency }
    return profile
  }
}
