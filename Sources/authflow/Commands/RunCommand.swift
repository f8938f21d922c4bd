import ArgumentParser
import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation

/// `authflow run [PATH…]`: source → parsed → validated (with its flow graph) → planned → bound to
/// running tenants → results → reports; see docs/architecture.md.
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

  @Option(name: .long, help: "Run only scenarios with this tag (repeatable: any of them).")
  var tag: [String] = []

  @Option(name: .customLong("skip-tag"), help: "Skip scenarios with this tag (repeatable).")
  var skipTag: [String] = []

  @Option(name: .long, help: "Run shard K of N (e.g. 2/4); stable across machines.")
  var shard: String?

  @Flag(
    name: .customLong("allow-empty"),
    help:
      "Exit 0 when the selection runs no scenario (default: exit 2); unknown --tag/--skip-tag values become warnings.")
  var allowEmpty = false

  @OptionGroup(title: "Reports")
  var reportOptions: ReportOptions

  @Flag(name: .long, help: "Print every HTTP exchange to standard error, secrets redacted.")
  var trace = false

  @Flag(
    name: .long,
    help: "No progress line, and no console line per scenario as it finishes: the header and the summary only.")
  var quiet = false

  @Flag(
    name: .customLong("no-progress"),
    help: "No live progress line on standard error (it is drawn only when standard error is a terminal).")
  var noProgress = false

  @Option(
    name: .customLong("rate-limit-retries"),
    help: "How many times a request answered 429 is retried (and an idempotent one whose connection failed).")
  var rateLimitRetries: Int = 3

  @Option(
    name: .customLong("rate-limit-max-wait"),
    help: "The longest wait before a retry (Retry-After / X-RateLimit-Reset asking for more are cut to it).")
  var rateLimitMaxWait: String = "10s"

  @Flag(
    name: .customLong("no-pacing"),
    help:
      "Send requests as soon as they are ready, not paced by the tenant's X-RateLimit-* headers or its profile's rate_limit (for a scenario that means to hit the limit)."
  )
  var noPacing = false

  @Option(
    name: .customLong("run-timeout"),
    help: ArgumentHelp(
      "Stop the whole run after this long (1s–168h) and exit 124: running scenarios are cut short, their cleanup runs, reports are written.",
      discussion: "Unset, the run is bounded by its scenarios' and steps' own timeouts."))
  var runTimeout: String?

  @OptionGroup(title: "Transport limits")
  var transportOptions: TransportOptions

  func validate() throws {
    try FlagRange.check("--jobs", jobs, in: InputLimits.jobs)
    try FlagRange.check("--rate-limit-retries", rateLimitRetries, in: InputLimits.rateLimitRetries)
    try FlagRange.checkDuration("--rate-limit-max-wait", rateLimitMaxWait)
    if let runTimeout { _ = try FlagRange.duration("--run-timeout", runTimeout, in: InputLimits.runTimeout) }
    if let tenant, Self.tenantNames(tenant).isEmpty {
      throw ValidationError("--tenant needs at least one tenant name")
    }
    if let shard, Shard(shard) == nil {
      throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, e.g. 2/4 (got '\(shard)')")
    }
  }

  func run() async throws {
    // Signals and a closed output stop the run from here on, until the last report is written.
    let stops = StopSignals.install()
    defer { stops.uninstall() }
    // `--run-timeout` counts from here: loading, discovery and every scenario.
    let deadline = runTimeout.flatMap { try? FlagRange.duration("--run-timeout", $0, in: InputLimits.runTimeout) }
      .map { stops.deadline(after: $0, written: runTimeout ?? "") }
    defer { deadline?.cancel() }
    let secrets = SecretRegistry(revealSecrets: reportOptions.showSecrets)
    let reporters = try makeReporters(secrets: secrets)
    // Until the plan is known, a second signal still leaves valid reports: an interrupted run with
    // no scenario yet (the journal below replaces this one).
    let early = ReportJournal(reporters: reporters, tenant: tenant ?? "", startedAt: Date(), planned: ScenarioReports())
    stops.onSecondStop { await early.writeNow() }

    // source → parsed → validated
    let source = ScenarioSource(paths: paths, configFile: config)
    let suite = await source.planned(embedded: MockTenantHost())
    DiagnosticOutput.print(suite.diagnostics, sources: suite.sources)
    guard suite.isValid else { throw ExitCode(AuthFlowExitCode.invalidInput.rawValue) }

    // → planned: tenants and selection
    let plan = try makePlan(suite, source: source)
    // A report is rewritten as scenarios finish: written over a file the run reads, it would lose
    // that file and fail the scenarios read after it.
    let overwritten = ReportPathCheck.overwrittenInputs(reporters.fileTargets, inputs: suite.inputFiles)
    guard overwritten.isEmpty else {
      for problem in overwritten { Console.error("error: \(problem)") }
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    let start = RunStart(
      tenant: plan.tenantNames.joined(separator: ","), scenarioCount: plan.instances.count * plan.profiles.count,
      startedAt: Date())
    // Each finished scenario goes to the spool, not memory; the reports read it back.
    let spool = Self.makeSpool(reporters: reporters, capacity: start.scenarioCount, secrets: secrets)
    // From here a second signal leaves reports of every selected scenario (interrupted, not run).
    let journal = ReportJournal(
      reporters: reporters, tenant: start.tenant, startedAt: start.startedAt, planned: plan.notRun, spool: spool,
      shard: plan.selection.shard, stops: stops.record)
    stops.onSecondStop { await journal.writeNow() }

    // → bound: the tenants run (embedded mocks start here)
    let network = try RunNetwork(self, secrets: secrets)
    let bound = try await bind(plan, network: network, secrets: secrets, sources: suite.sources)
    // A scenario that will run and reads a variable the job did not export would read it as null.
    let unset = bound.unsetEnvironment(
      in: ProcessInfo.processInfo.environment, chromium: ChromiumHost(observe: { _ in }))
    guard unset.isEmpty else {
      DiagnosticOutput.print(unset, sources: suite.sources)
      await bound.stop()
      try? await network.live.shutdown()
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    if let pacer = network.pacer { bound.declareRates(to: pacer) }

    // → results
    let reports = await execute(
      bound, network: network, reporters: reporters, journal: journal, spool: spool, start: start, stops: stops,
      secrets: secrets)
    // Every scenario has a result: `--run-timeout` stops counting (writing the reports is bounded
    // by their sizes, and a second signal still exits at once).
    deadline?.cancel()
    await bound.stop()
    try? await network.live.shutdown()
    if trace, let pacer = network.pacer { Console.error(RunNetwork.pacingSummary(pacer.statistics)) }
    await journal.close()

    // → reports
    var report = RunReport.combining(reports)
    report.shard = plan.selection.shard
    // A stop counts when it cut the run short; one that came after the last scenario stopped
    // nothing, and the reports and the exit code both say the run was whole.
    let stop = report.stop(thatCut: stops.cause)
    if report.stopCause == nil { report.stopCause = stop }
    let reportsWritten = await Self.finish(report, reporters: reporters)
    if !quiet, let notice = reporters.consoleNotice(for: report.redacted(by: secrets), written: reportsWritten) {
      Self.printNotice(notice, reporters: reporters)
    }
    if reports.count > 1 {
      Self.printComparison(TenantComparison(runs: reports.map { $0.redacted(by: secrets) }), secrets: secrets)
    }
    let verdict = reportOptions.verdict(of: report, secrets: secrets)
    let code = Self.exitCode(verdict, reportsWritten: reportsWritten, stopCause: stop)
    if code != .success { throw ExitCode(code.rawValue) }
  }

  /// The reporters, their report paths checked before anything runs: a report lost at the end is
  /// a false green.
  private func makeReporters(secrets: SecretRegistry) throws -> ReporterGroup {
    var context = ReporterContext.live(secrets: secrets)
    context.quiet = quiet
    let reporters = try reportOptions.reporters(context: context)
    let pathProblems = reporters.checkReportPaths()
    guard pathProblems.isEmpty else {
      for problem in pathProblems { Console.error("error: \(problem)") }
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    return reporters
  }

  /// The run's results spool (``ScenarioSpool``), beside the first report file that is not a stream, else in the
  /// temporary directory; without one (a directory that takes no file) the reports stay in memory.
  private static func makeSpool(reporters: ReporterGroup, capacity: Int, secrets: SecretRegistry) -> ScenarioSpool? {
    // Not beside a stream (`json:/dev/stdout` would put it in /dev).
    let directory =
      reporters.fileTargets.first { !AtomicFile.isStream($0.path) }.map {
        URL(fileURLWithPath: $0.path).deletingLastPathComponent().path
      }
      ?? FileManager.default.temporaryDirectory.path
    let keepsResults = reporters.needsStepResults
    do {
      return try ScenarioSpool(directory: directory, capacity: capacity) {
        $0.spooled(secrets: secrets, keepingResults: keepsResults)
      }
    } catch {
      Console.error("warning: \(error.description); the results are kept in memory instead")
      return nil
    }
  }

  /// The verdicts by tenant, printed a line at a time, each scrubbed.
  private static func printComparison(_ comparison: TenantComparison, secrets: SecretRegistry) {
    var text = ""
    comparison.render { line in
      text += secrets.scrub(line) + "\n"
      if text.utf8.count >= ReportTextSink.chunkSize {
        StandardStreams.output(text)
        text = ""
      }
    }
    Console.out(text)
  }

  /// The plan: `--tenant` names (exit 2 for one no profile has) and the selection, checked.
  private func makePlan(_ suite: ValidatedSuite, source: ScenarioSource) throws -> RunPlan {
    let selection = Selection(tags: tag, skipTags: skipTag, shard: shard.flatMap(Shard.init))
    switch suite.plan(tenants: tenant.map(Self.tenantNames), selection: selection) {
    case .failure(let unknown):
      Console.error("error: \(unknown.message)")
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    case .success(let plan):
      try checkSelection(plan, paths: source.paths)
      return plan
    }
  }

  /// The transport every tenant is reached through: the live client, traced with `--trace`, paced
  /// by the tenants' rate limits (unless `--no-pacing`), retrying on 429 within the rate-limit bounds.
  struct RunNetwork {
    let live: LiveTransport
    let transport: any HTTPTransport
    /// Shared by every job and tenant of the run; nil with `--no-pacing`.
    let pacer: RateLimitPacer?

    init(_ command: RunCommand, secrets: SecretRegistry) throws {
      let configuration = try command.transportOptions.parsed()
      live = LiveTransport(configuration: configuration)
      var policy = command.retryPolicy
      policy.requestTimeout = configuration.requestTimeout
      let sent: any HTTPTransport = command.trace ? RunCommand.tracing(live, secrets: secrets) : live
      pacer = command.noPacing ? nil : RateLimitPacer()
      let paced: any HTTPTransport =
        pacer.map {
          PacedTransport(wrapping: sent, pacer: $0, maxWait: policy.maxWait, requestTimeout: policy.requestTimeout)
        } ?? sent
      transport = RetryingTransport(wrapping: paced, policy: policy)
    }

    /// `pacing: 3 of 120 requests waited for the tenant's rate limit, 1.2s in all`.
    static func pacingSummary(_ statistics: RateLimitPacer.Statistics) -> String {
      let waited = DurationText.format(statistics.waited)
      return
        "pacing: \(statistics.paced) of \(statistics.admitted) requests waited for the tenant's rate limit, \(waited) in all"
    }
  }

  /// Binds the plan to running tenants: a bad profile or fixture exits 2, a tenant that cannot be
  /// started or reached 3.
  private func bind(
    _ plan: RunPlan, network: RunNetwork, secrets: SecretRegistry, sources: [String: String]
  ) async throws -> BoundRun {
    let resolver = TenantResolver(
      embedded: MockTenantHost(stateLimits: .embedded(jobs: jobs)), environment: ProcessInfo.processInfo.environment,
      secrets: secrets,
      projectDirectory: plan.projectDirectory, transport: network.transport)
    do {
      return try await plan.bind(resolver)
    } catch {
      DiagnosticOutput.print(error.error.diagnostics, sources: sources)
      Console.error("error: tenant '\(error.tenant)': \(secrets.scrub(error.error.message))")
      try? await network.live.shutdown()
      throw ExitCode((error.error.isEnvironment ? AuthFlowExitCode.environment : .invalidInput).rawValue)
    }
  }

  /// Runs the bound plan on each tenant, with live progress, the journal and the reporters
  /// observing; a stop cancels it (cleanup still runs, the rest is reported interrupted).
  private func execute(
    _ bound: BoundRun, network: RunNetwork, reporters: ReporterGroup, journal: ReportJournal, spool: ScenarioSpool?,
    start: RunStart, stops: StopSignals, secrets: SecretRegistry
  ) async -> [RunReport] {
    let environment = ProcessInfo.processInfo.environment
    let chromium = ChromiumHost(observe: Self.chromiumObserver(secrets: secrets, trace: trace))
    var services = RunServices(
      secrets: secrets, transport: network.transport, environment: environment, chromium: chromium)
    services.recordsExchanges = reporters.needsStepResults
    services.stops = stops.record
    var runs = bound.runs(
      services: services, jobs: jobs, keepsStepResults: reporters.needsStepResults, spool: spool)
    let progress = showsProgress(environment) ? ProgressDisplay.live(total: start.scenarioCount, secrets: secrets) : nil
    var extraObservers: [any RunObserver] = []
    if journal.isNeeded { extraObservers.append(journal) }
    if let progress { extraObservers.append(progress) }
    runs.observer = reporters.observer(adding: extraObservers)
    await reporters.runStarted(start)
    await journal.writeNow()
    let redraws = progress.map { progress in Task { await progress.run() } }
    let observed = runs
    let instances = bound.plan.instances
    let running = Task { await observed.run(instances) }
    stops.onStop { running.cancel() }
    let reports = await running.value
    stops.onStop(nil)
    // The progress line is erased before anything else is printed (the summary, the comparison).
    redraws?.cancel()
    progress?.stop()
    await chromium.shutdown()
    // A safety net: any chromium this process started and did not stop is killed now.
    LaunchedProcesses.killAll()
    return reports
  }

  /// Writes every report; false when one could not be written (a green run then exits 3).
  private static func finish(_ report: RunReport, reporters: ReporterGroup) async -> Bool {
    do {
      try await reporters.finish(report)
      return true
    } catch {
      Console.error("error: \(error.description)")
      return false
    }
  }

  /// The console notice of a run whose reports all go to files: on standard output, unless a
  /// report is written to a stream (`json:/dev/stdout`), which it would corrupt.
  static func printNotice(_ notice: String, reporters: ReporterGroup) {
    if reporters.writesToAStream { StandardStreams.error(notice) } else { StandardStreams.output(notice) }
  }

  /// The live progress line: only when standard error is a terminal that can erase a line, and
  /// neither `--quiet` nor `--no-progress` was given.
  private func showsProgress(_ environment: [String: String]) -> Bool {
    !quiet && !noProgress && isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
  }

  /// Unknown `--tag`/`--skip-tag` values and an empty selection are errors (exit 2), warnings
  /// with `--allow-empty`.
  private func checkSelection(_ plan: RunPlan, paths: [String]) throws {
    let (selection, instances, unknown, total) = (plan.selection, plan.instances, plan.unknownTags, plan.loadedCount)
    for tag in unknown {
      Console.error("\(allowEmpty ? "warning" : "error"): \(tag.message)")
    }
    if instances.isEmpty {
      if allowEmpty {
        Console.error(SelectionMessages.emptySelectionAllowed(selection, paths: paths))
      } else {
        Console.error("error: " + SelectionMessages.emptySelection(selection, paths: paths, loaded: total))
      }
    }
    if !allowEmpty, !unknown.isEmpty || instances.isEmpty {
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
  }

  /// The exit-code contract (README, docs/running.md): a stop's own code (130 SIGINT, 143 SIGTERM,
  /// 129 SIGHUP, 141 closed standard output, 124 `--run-timeout`) over the verdict; a report that could not be written
  /// turns a green run into 3 (environment).
  static func exitCode(
    _ verdict: AuthFlowExitCode, reportsWritten: Bool, stopCause: StopCause?
  ) -> AuthFlowExitCode {
    if let stopCause { return stopCause.exitCode }
    if StandardStreams.isOutputClosed { return .closedOutput }
    if !reportsWritten, verdict == .success { return .environment }
    return verdict
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

  /// The bounds of the rate-limit-aware client (docs/running.md).
  fileprivate var retryPolicy: RetryingTransport.Policy {
    var policy = RetryingTransport.Policy()
    policy.maxRetries = rateLimitRetries
    policy.maxWait = DurationText.parse(rateLimitMaxWait) ?? policy.maxWait
    return policy
  }

  /// What chromium fetched: its secrets learnt, and with `--trace` each request and response head
  /// printed, masked as the built-in driver's exchanges are.
  private static func chromiumObserver(
    secrets: SecretRegistry, trace: Bool
  ) -> @Sendable (HTTPExchange) -> Void {
    let formatter = ExchangeFormatter(revealSecrets: secrets.revealSecrets)
    return { exchange in
      SecretExtraction.register(exchange, in: secrets)
      if trace { Console.error(secrets.scrub("[chromium] " + formatter.format(exchange))) }
    }
  }

  fileprivate static func tracing(_ base: any HTTPTransport, secrets: SecretRegistry) -> any HTTPTransport {
    TracingTransport.scrubbed(wrapping: base, secrets: secrets) { Console.error($0) }
  }
}
