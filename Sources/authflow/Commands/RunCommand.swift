import ArgumentParser
import AuthFlowCore
import AuthFlowHTTP
import AuthFlowReporting
import AuthFlowRun
import AuthFlowTelemetry
import Foundation

/// `authflow run [PATH…]`: its flags, made into a ``RunConfiguration`` and run by ``RunSession``
/// (docs/architecture.md).
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run scenarios against a tenant (default: the embedded mock tenant).")

  @Argument(help: "Scenario files or directories (default: scenarios/).")
  var paths: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The tenant profile to run against (default: default_tenant of authflow.yaml, else mock).",
      discussion: "Several, comma-separated (mock,conformance), run every scenario on each and compare the verdicts."))
  var tenant: String?

  @Option(name: .long, help: "The tenant profiles file (default: authflow.yaml beside the scenarios).")
  var config: String?

  @Option(name: .long, help: "How many scenarios run at once.")
  var jobs: Int = 4

  @OptionGroup var selection: SelectionOptions
  @OptionGroup(title: "Reports") var reportOptions: ReportOptions
  @OptionGroup var console: ConsoleOptions
  @OptionGroup var rateLimits: RateLimitOptions

  @Option(
    name: .customLong("run-timeout"),
    help: ArgumentHelp(
      "Stop the whole run after this long (1s–168h) and exit 124: running scenarios are cut short, their cleanup runs, reports are written.",
      discussion: "Unset, the run is bounded by its scenarios' and steps' own timeouts."))
  var runTimeout: String?

  @OptionGroup(title: "Transport limits") var transportOptions: TransportOptions

  @Option(
    name: .customLong("otlp-endpoint"),
    help: ArgumentHelp(
      "Export the run's spans over OTLP/HTTP to this collector (http://HOST:4318).",
      discussion:
        "A span per scenario, a child per step, a child per HTTP exchange (URLs masked); the tenant receives the trace context (docs/monitor.md#traces)."
    ))
  var otlpEndpoint: String?

  func validate() throws {
    try OTLPOption.check(otlpEndpoint)
    try FlagRange.check("--jobs", jobs, in: InputLimits.jobs)
    if let runTimeout { _ = try FlagRange.duration("--run-timeout", runTimeout, in: InputLimits.runTimeout) }
    if let tenant, Self.tenantNames(tenant).isEmpty { throw ValidationError("--tenant needs at least one tenant name") }
  }

  func run() async throws {
    // Signals and a closed output stop the run from here on, until the last report is written.
    let stops = StopControl.installingSignals(early: EarlySignals.take())
    defer { stops.uninstall() }
    let secrets = SecretRegistry(revealSecrets: reportOptions.showSecrets)
    var context = ReporterContext.live(secrets: secrets)
    context.quiet = console.quiet
    var configuration = RunConfiguration(secrets: secrets, reporters: try reportOptions.reporters(context: context))
    (configuration.paths, configuration.configFile, configuration.jobs) = (paths, config, jobs)
    configuration.tenants = tenant.map(Self.tenantNames)
    configuration.failOnSkip = reportOptions.failOnSkip
    configuration.transport = try transportOptions.parsed()
    configuration.runTimeout = try runTimeout.map {
      (limit: try FlagRange.duration("--run-timeout", $0, in: InputLimits.runTimeout), written: $0)
    }
    selection.apply(to: &configuration)
    console.apply(to: &configuration)
    rateLimits.apply(to: &configuration)
    let export = try OTLPOption.start(otlpEndpoint)
    configuration.tracer = export?.tracer
    let outcome = await RunSession(configuration).run(stops: stops)
    // What is queued goes out before the process ends.
    await export?.finish()
    // A safety net: any chromium this process started and did not stop is killed now.
    LaunchedProcesses.killAll()
    if outcome.exitCode != .success { throw ExitCode(outcome.exitCode.rawValue) }
  }

  /// `a, b,a` → `[a, b]`: names in order, blanks and repeats dropped.
  static func tenantNames(_ text: String) -> [String] {
    var names: [String] = []
    for part in text.split(separator: ",") {
      let name = part.trimmingCharacters(in: .whitespaces)
      if !name.isEmpty, !names.contains(name) { names.append(name) }
    }
    return names
  }
}
