import ArgumentParser
import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation

/// `authflow run [PATH…]`: parse → validate → graph → bind → interpret → report.
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

  @Flag(
    name: .customLong("fail-on-skip"),
    help: "Exit 1 when any selected scenario is skipped, or any step is skipped by its 'if:' (docs/running.md).")
  var failOnSkip = false

  @Option(name: .long, help: "console, junit:FILE, json:FILE, html:FILE or github (repeatable; default console).")
  var reporter: [String] = []

  @Flag(name: .customLong("show-secrets"), help: "Print passwords, secrets, codes and tokens (local debugging only).")
  var showSecrets = false

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

  @OptionGroup(title: "Transport limits")
  var transportOptions: TransportOptions

  func validate() throws {
    try FlagRange.check("--jobs", jobs, in: InputLimits.jobs)
    try FlagRange.check("--rate-limit-retries", rateLimitRetries, in: InputLimits.rateLimitRetries)
    try FlagRange.checkDuration("--rate-limit-max-wait", rateLimitMaxWait)
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
    let paths = self.paths.isEmpty ? ["scenarios"] : self.paths
    let secrets = SecretRegistry(revealSecrets: showSecrets)
    var reporterContext = ReporterContext.live(secrets: secrets)
    reporterContext.quiet = quiet
    let reporters: ReporterGroup
    do {
      reporters = try ReporterRegistry.builtIn.make(
        arguments: reporter.isEmpty ? ["console"] : reporter, context: reporterContext)
    } catch {
      throw ValidationError(error.description)
    }
    // Report paths are checked before anything runs: a report lost at the end is a false green.
    let pathProblems = reporters.checkReportPaths()
    guard pathProblems.isEmpty else {
      for problem in pathProblems { Console.error("error: \(problem)") }
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    // Until the selection is known, a second signal still leaves valid reports: an interrupted run
    // with no scenario yet (the journal below replaces this one).
    let early = ReportJournal(reporters: reporters, tenant: tenant ?? "", startedAt: Date(), planned: [])
    stops.onSecondStop { await early.writeNow() }

    // parse → validate → graph → bind
    let loaded = await Pipeline.load(paths)
    let project = Pipeline.loadProject(explicit: config, near: paths)
    let sources = loaded.sources.merging(project.sources) { first, _ in first }
    let diagnostics =
      loaded.diagnostics + project.diagnostics
      + Pipeline.check(loaded.scenarios, against: project.config, embedded: MockTenantHost())
    DiagnosticOutput.print(diagnostics, sources: sources)
    guard !diagnostics.hasErrors else { throw ExitCode(AuthFlowExitCode.invalidInput.rawValue) }

    let tenantNames = tenant.map(Self.tenantNames) ?? [project.config.defaultTenantName]
    var profiles: [TenantProfile] = []
    for tenantName in tenantNames {
      guard let profile = project.config.tenant(named: tenantName) else {
        let known = project.config.tenants.map(\.name.value)
        let hint = Suggestion.hint(for: tenantName, in: known).map { " (\($0))" } ?? ""
        Console.error("error: no tenant named '\(tenantName)'\(hint); known tenants: \(known.joined(separator: ", "))")
        throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
      }
      profiles.append(profile)
    }
    let selection = Selection(tags: tag, skipTags: skipTag, shard: shard.flatMap(Shard.init))
    let loadedInstances = loaded.scenarios.flatMap(\.instances)
    let instances = selection.apply(to: loadedInstances)
    try checkSelection(
      selection, instances: instances, loaded: loaded.scenarios, total: loadedInstances.count, paths: paths)
    // From here a second signal leaves reports of every selected scenario (interrupted, not run).
    let start = RunStart(
      tenant: tenantNames.joined(separator: ","), scenarioCount: instances.count * profiles.count, startedAt: Date())
    let journal = ReportJournal(
      reporters: reporters, tenant: start.tenant, startedAt: start.startedAt,
      planned: TenantRuns.notRun(instances, tenants: tenantNames), shard: selection.shard)
    stops.onSecondStop { await journal.writeNow() }

    // The tenants: embedded mocks start here.
    let environment = ProcessInfo.processInfo.environment
    let transportConfiguration = try transportOptions.parsed()
    let live = LiveTransport(configuration: transportConfiguration)
    var policy = retryPolicy
    policy.requestTimeout = transportConfiguration.requestTimeout
    let transport = RetryingTransport(
      wrapping: trace ? Self.tracing(live, secrets: secrets) : live, policy: policy)
    let projectDirectory =
      project.config.file.isEmpty ? "." : (project.config.file as NSString).deletingLastPathComponent
    let resolver = TenantResolver(
      embedded: MockTenantHost(), environment: environment, secrets: secrets, projectDirectory: projectDirectory,
      transport: transport)
    var resolved: [ResolvedTenant] = []
    for profile in profiles {
      do {
        resolved.append(try await resolver.resolve(profile))
      } catch {
        DiagnosticOutput.print(error.diagnostics, sources: sources)
        Console.error("error: tenant '\(profile.name.value)': \(secrets.scrub(error.message))")
        for tenant in resolved { await tenant.stop() }
        try? await live.shutdown()
        throw ExitCode((error.isEnvironment ? AuthFlowExitCode.environment : .invalidInput).rawValue)
      }
    }

    // interpret → report
    let chromium = ChromiumHost(observe: Self.chromiumObserver(secrets: secrets, trace: trace))
    var services = RunServices(secrets: secrets, transport: transport, environment: environment, chromium: chromium)
    services.recordsExchanges = reporters.needsStepResults
    var runs = TenantRuns(
      tenants: resolved.map(\.context), services: services, functions: Pipeline.functions, jobs: jobs,
      keepsStepResults: reporters.needsStepResults)
    let progress = showsProgress(environment) ? ProgressDisplay.live(total: start.scenarioCount, secrets: secrets) : nil
    var extraObservers: [any RunObserver] = []
    if journal.isNeeded { extraObservers.append(journal) }
    if let progress { extraObservers.append(progress) }
    runs.observer = reporters.observer(adding: extraObservers)
    await reporters.runStarted(start)
    await journal.writeNow()
    let redraws = progress.map { progress in Task { await progress.run() } }
    let observed = runs
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
    for tenant in resolved { await tenant.stop() }
    try? await live.shutdown()
    await journal.close()
    var report = RunReport.combining(reports)
    report.shard = selection.shard
    var reportsWritten = true
    do {
      try await reporters.finish(report)
    } catch {
      Console.error("error: \(error.description)")
      reportsWritten = false
    }
    if reports.count > 1 {
      let comparison = TenantComparison(runs: reports.map { $0.redacted(by: secrets) })
      Console.out(secrets.scrub(comparison.render()))
    }
    let verdict = report.exitCode(failOnSkip: failOnSkip)
    if failOnSkip, verdict != report.exitCode {
      Console.error(secrets.scrub(SkipNotice.failOnSkipMessage(report.skips)))
    }
    let code = Self.exitCode(verdict, reportsWritten: reportsWritten, stopCause: stops.cause)
    if code != .success { throw ExitCode(code.rawValue) }
  }

  /// The live progress line: only when standard error is a terminal that can erase a line, and
  /// neither `--quiet` nor `--no-progress` was given.
  private func showsProgress(_ environment: [String: String]) -> Bool {
    !quiet && !noProgress && isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
  }

  /// Unknown `--tag`/`--skip-tag` values and an empty selection are errors (exit 2), warnings
  /// with `--allow-empty`.
  private func checkSelection(
    _ selection: Selection, instances: [ScenarioInstance], loaded: [Scenario], total: Int, paths: [String]
  ) throws {
    let unknown = selection.unknownTags(in: loaded)
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
  /// 129 SIGHUP, 141 closed standard output) over the verdict; a report that could not be written
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
  private var retryPolicy: RetryingTransport.Policy {
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

  private static func tracing(_ base: any HTTPTransport, secrets: SecretRegistry) -> any HTTPTransport {
    TracingTransport.scrubbed(wrapping: base, secrets: secrets) { Console.error($0) }
  }
}
