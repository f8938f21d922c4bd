import ArgumentParser
import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMonitor
import AuthFlowReporting
import AuthFlowRun
import AuthFlowScenario
import AuthFlowTelemetry
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `authflow monitor [PATH…]`: the scenarios run on a schedule, served as Prometheus metrics, a
/// status page and a JSON API, until SIGTERM or SIGINT (graceful); SIGHUP reloads the files
/// (docs/monitor.md).
struct MonitorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "monitor",
    abstract: "Run scenarios on a schedule and serve their results: /metrics (Prometheus), /probe, a status page.",
    discussion: """
      Each scenario runs on each tenant every --interval (or its schedule in authflow.yaml's monitor:), never twice \
      at once. GET /metrics, /probe?scenario=NAME&tenant=T, / (status page), /api/results, /healthz, /readyz. \
      SIGHUP reloads the files (an invalid set keeps the running one); SIGTERM and SIGINT stop after the runs in \
      flight finish (--grace).
      """)

  @Argument(help: "Scenario files or directories (default: scenarios/).")
  var paths: [String] = []

  @Option(name: .long, help: "The tenant profiles to watch, comma-separated (default: default_tenant, else mock).")
  var tenant: String?

  @Option(name: .long, help: "The tenant profiles file (default: authflow.yaml beside the scenarios).")
  var config: String?

  @Option(name: .long, help: "Where the HTTP endpoints listen, HOST:PORT (default 127.0.0.1:9464).")
  var listen = "127.0.0.1:9464"

  @Option(name: .long, help: "Between two starts of a scenario, 1s–24h (default: monitor.interval, else 5m).")
  var interval: String?

  @Option(name: .long, help: "How far a start may move, in percent of the interval, 0–50 (default 10).")
  var jitter: Int?

  @Option(name: .long, help: "Scenarios run at once, 1–64 (default: monitor.concurrency, else 2).")
  var concurrency: Int?

  @Option(name: .long, help: "Runs kept per scenario for the status page, 1–1000.")
  var history = 20

  @Option(name: .long, help: "How long a stop lets running scenarios finish, 0s–10m.")
  var grace = "30s"

  @Option(
    name: .customLong("otlp-endpoint"),
    help: "Export every run's spans over OTLP/HTTP to this collector (http://HOST:4318).")
  var otlpEndpoint: String?

  @OptionGroup var selection: SelectionOptions
  @OptionGroup var rateLimits: RateLimitOptions
  @OptionGroup(title: "Transport limits") var transportOptions: TransportOptions

  func validate() throws {
    try OTLPOption.check(otlpEndpoint)
    guard ListenAddress.parse(listen) != nil else { throw ValidationError("--listen must be HOST:PORT") }
    if let interval { _ = try FlagRange.duration("--interval", interval, in: InputLimits.monitorInterval) }
    if let jitter { try FlagRange.check("--jitter", jitter, in: InputLimits.monitorJitterPercent) }
    if let concurrency { try FlagRange.check("--concurrency", concurrency, in: InputLimits.monitorConcurrency) }
    try FlagRange.check("--history", history, in: InputLimits.monitorHistory)
    _ = try FlagRange.duration("--grace", grace, in: InputLimits.monitorGrace)
    if let tenant, RunCommand.tenantNames(tenant).isEmpty {
      throw ValidationError("--tenant needs at least one tenant name")
    }
  }

  func run() async throws {
    let secrets = SecretRegistry()
    var run = RunConfiguration(secrets: secrets, reporters: ReporterGroup([]))
    (run.paths, run.configFile) = (paths, config)
    run.tenants = tenant.map(RunCommand.tenantNames)
    run.transport = try transportOptions.parsed()
    selection.apply(to: &run)
    rateLimits.apply(to: &run)
    var configuration = MonitorConfiguration(run: run)
    guard let (host, port) = ListenAddress.parse(listen) else { throw ValidationError("--listen must be HOST:PORT") }
    (configuration.host, configuration.port) = (host, port)
    configuration.interval = try interval.map {
      try FlagRange.duration("--interval", $0, in: InputLimits.monitorInterval)
    }
    configuration.jitterPercent = jitter
    configuration.concurrency = concurrency
    configuration.history = history
    configuration.grace = try FlagRange.duration("--grace", grace, in: InputLimits.monitorGrace)

    let export = try OTLPOption.start(otlpEndpoint)
    configuration.run.tracer = export?.tracer
    let monitor = Monitor(configuration)
    if let code = await monitor.load() { throw ExitCode(code.rawValue) }
    // SIGHUP reloads; SIGTERM and SIGINT are the service group's (a graceful stop).
    signal(SIGHUP, SIG_IGN)
    let hangups = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "authflow.monitor.hup"))
    hangups.setEventHandler { monitor.reload() }
    hangups.resume()
    defer { hangups.cancel() }
    let handle: MonitorServer.Handle
    do {
      handle = try await MonitorServer.start(monitor, host: host, port: port, stopsOnSignals: true)
    } catch {
      StandardStreams.error("error: \(error.description)\n")
      throw ExitCode(AuthFlowExitCode.environment.rawValue)
    }
    StandardStreams.output(handle.url + "\n")
    StandardStreams.error(
      "monitor: \(monitor.results.status.entries.count) scenario runs scheduled; metrics at \(handle.url)metrics\n")
    try await handle.wait()
    await export?.finish()
    LaunchedProcesses.killAll()
  }
}
