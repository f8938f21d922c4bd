public import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
public import AuthFlowReporting
public import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Tracing

/// One run, from its configuration to its reports and exit code: source → parsed → validated
/// (with its flow graph) → planned → bound to running tenants → results → reports (see
/// docs/architecture.md). `authflow run` is its flags and this; the tests and a long-running
/// service make the same run from a ``RunConfiguration`` of their own.
///
/// ```swift
/// let session = RunSession(configuration)
/// let outcome = await session.run(stops: StopControl())
/// ```
public struct RunSession: Sendable {
  public var configuration: RunConfiguration

  public init(_ configuration: RunConfiguration) {
    self.configuration = configuration
  }

  /// What a run ended with: its exit code (the contract of docs/running.md) and, when scenarios
  /// were planned, the report written.
  public struct Outcome: Sendable {
    public var exitCode: AuthFlowExitCode
    /// Nil when the run stopped before its plan was made (invalid input, a tenant unreachable).
    public var report: RunReport?
    /// Where the report's scenarios are kept (nil: in memory); its file has no name.
    public var spool: ScenarioSpool?
  }

  /// A run that ends before its scenarios, with this code; what went wrong is on the console.
  struct Exit: Error {
    var code: AuthFlowExitCode
  }

  /// Runs every selected scenario on every tenant and writes the reports. `stops` stops it:
  /// running scenarios are cut short, their cleanup runs and the reports are still written.
  public func run(stops: StopControl = StopControl()) async -> Outcome {
    guard let tracer = configuration.tracer else { return await runUntraced(stops: stops) }
    return await withTracer(tracer) { await runUntraced(stops: stops) }
  }

  private func runUntraced(stops: StopControl) async -> Outcome {
    do {
      return try await runOrExit(stops: stops)
    } catch {
      return Outcome(exitCode: error.code, report: nil)
    }
  }

  private func runOrExit(stops: StopControl) async throws(Exit) -> Outcome {
    let (console, secrets, reporters) = (configuration.console, configuration.secrets, configuration.reporters)
    // `--run-timeout` counts from here: loading, discovery and every scenario.
    let deadline = configuration.runTimeout.map { stops.deadline(after: $0.limit, written: $0.written) }
    defer { deadline?.cancel() }
    // A report lost at the end is a false green: its path is checked before anything runs.
    try refuse(reporters.checkReportPaths())
    // Until the plan is known, a second signal still leaves valid reports: an interrupted run with
    // no scenario yet (the journal below replaces this one).
    let early = ReportJournal(
      reporters: reporters, tenant: configuration.tenants?.joined(separator: ",") ?? "", startedAt: Date(),
      planned: ScenarioReports())
    stops.onSecondStop { await early.writeNow() }

    // source → parsed → validated
    let source = ScenarioSource(paths: configuration.paths, configFile: configuration.configFile)
    let suite = await source.planned(embedded: MockTenantHost())
    console.print(suite.diagnostics, sources: suite.sources)
    guard suite.isValid else { throw Exit(code: .invalidInput) }

    // → planned: tenants and selection
    let plan = try makePlan(suite, paths: source.paths)
    // A report is rewritten as scenarios finish: written over a file the run reads, it would lose
    // that file and fail the scenarios read after it.
    try refuse(ReportPathCheck.overwrittenInputs(reporters.fileTargets, inputs: suite.inputFiles))
    let start = RunStart(
      tenant: plan.tenantNames.joined(separator: ","), scenarioCount: plan.instances.count * plan.profiles.count,
      startedAt: Date())
    // Each finished scenario goes to the spool, not memory; the reports read it back.
    let spool = makeSpool(capacity: start.scenarioCount)
    // From here a second signal leaves reports of every selected scenario (interrupted, not run).
    let journal = ReportJournal(
      reporters: reporters, tenant: start.tenant, startedAt: start.startedAt, planned: plan.notRun, spool: spool,
      shard: plan.selection.shard, stops: stops.record)
    stops.onSecondStop { await journal.writeNow() }

    // → bound: the tenants run (embedded mocks start here)
    let network = RunNetwork(configuration)
    let bound = try await bindChecked(plan, network: network, sources: suite.sources)

    // → results
    let execution = RunExecution(
      configuration: configuration, network: network, journal: journal, spool: spool, start: start, stops: stops)
    let reports = await execution.run(bound)
    // Every scenario has a result: `--run-timeout` stops counting (writing the reports is bounded
    // by their sizes, and a second signal still exits at once).
    deadline?.cancel()
    await configuration.beforeTenantsStop?(bound.tenants.map(\.context.baseURL), network.transport)
    await bound.stop()
    await network.shutdown()
    if configuration.trace != nil, let pacer = network.pacer {
      console.error(RunNetwork.pacingSummary(pacer.statistics))
    }
    await journal.close()

    // → reports
    var report = RunReport.combining(reports)
    report.shard = plan.selection.shard
    // A stop counts when it cut the run short; one that came after the last scenario stopped
    // nothing, and the reports and the exit code both say the run was whole.
    let stop = report.stop(thatCut: stops.cause)
    if report.stopCause == nil { report.stopCause = stop }
    let delivery = ReportDelivery(
      reporters: reporters, secrets: secrets, failOnSkip: configuration.failOnSkip, console: console,
      quiet: configuration.quiet)
    var code = await delivery.deliver(report, comparing: reports.count > 1 ? reports : [])
    if let stop { code = stop.exitCode }
    return Outcome(exitCode: code, report: report, spool: spool)
  }

  /// Prints each problem as an error and exits 2, when there is one.
  func refuse(_ problems: [String]) throws(Exit) {
    guard problems.isEmpty else {
      for problem in problems { configuration.console.error("error: \(problem)") }
      throw Exit(code: .invalidInput)
    }
  }

  /// The plan: tenant names (exit 2 for one no profile has) and the selection, checked.
  func makePlan(_ suite: ValidatedSuite, paths: [String]) throws(Exit) -> RunPlan {
    switch suite.plan(tenants: configuration.tenants, selection: configuration.selection) {
    case .failure(let unknown):
      configuration.console.error("error: \(unknown.message)")
      throw Exit(code: .invalidInput)
    case .success(let plan):
      try checkSelection(plan, paths: paths)
      return plan
    }
  }

  /// Unknown `--tag`/`--skip-tag` values and an empty selection are errors (exit 2), warnings
  /// with ``RunConfiguration/allowEmpty``.
  private func checkSelection(_ plan: RunPlan, paths: [String]) throws(Exit) {
    let (console, allowEmpty) = (configuration.console, configuration.allowEmpty)
    for tag in plan.unknownTags {
      console.error("\(allowEmpty ? "warning" : "error"): \(tag.message)")
    }
    if plan.instances.isEmpty {
      if allowEmpty {
        console.error(SelectionMessages.emptySelectionAllowed(plan.selection, paths: paths))
      } else {
        console.error(
          "error: " + SelectionMessages.emptySelection(plan.selection, paths: paths, loaded: plan.loadedCount))
      }
    }
    if !allowEmpty, !plan.unknownTags.isEmpty || plan.instances.isEmpty {
      throw Exit(code: .invalidInput)
    }
  }

  /// The run's results spool (``ScenarioSpool``), beside the first report file that is not a
  /// stream, else in the temporary directory; without one (a directory that takes no file) the
  /// reports stay in memory.
  private func makeSpool(capacity: Int) -> ScenarioSpool? {
    let (reporters, secrets) = (configuration.reporters, configuration.secrets)
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
      configuration.console.error("warning: \(error.description); the results are kept in memory instead")
      return nil
    }
  }

  /// Binds the plan (``bind(_:network:sources:)``), refuses a run whose scenarios read a variable
  /// the job did not export (it would read as null; exit 2), and declares the tenants' rates to the
  /// pacer.
  func bindChecked(
    _ plan: RunPlan, network: RunNetwork, sources: [String: String]
  ) async throws(Exit) -> BoundRun {
    let bound = try await bind(plan, network: network, sources: sources)
    let unset = bound.unsetEnvironment(in: configuration.environment, chromium: ChromiumHost(observe: { _ in }))
    guard unset.isEmpty else {
      configuration.console.print(unset, sources: sources)
      await bound.stop()
      await network.shutdown()
      throw Exit(code: .invalidInput)
    }
    if let pacer = network.pacer { bound.declareRates(to: pacer) }
    return bound
  }

  /// Binds the plan to running tenants: a bad profile or fixture exits 2, a tenant that cannot be
  /// started or reached 3.
  func bind(
    _ plan: RunPlan, network: RunNetwork, sources: [String: String]
  ) async throws(Exit) -> BoundRun {
    let secrets = configuration.secrets
    let resolver = TenantResolver(
      embedded: MockTenantHost(stateLimits: .embedded(jobs: configuration.jobs)), inboxHost: configuration.inboxHost,
      environment: configuration.environment, secrets: secrets, projectDirectory: plan.projectDirectory,
      transport: network.transport)
    do {
      return try await plan.bind(resolver)
    } catch {
      configuration.console.print(error.error.diagnostics, sources: sources)
      configuration.console.error("error: tenant '\(error.tenant)': \(secrets.scrub(error.error.message))")
      await network.shutdown()
      throw Exit(code: error.error.isEnvironment ? .environment : .invalidInput)
    }
  }
}

/// The results stage of a ``RunSession``: the bound plan run on each tenant, with live progress,
/// the journal, the reporters and the configuration's observers hearing of every scenario; a stop
/// cancels it (cleanup still runs, the rest is reported interrupted).
struct RunExecution {
  let configuration: RunConfiguration
  let network: RunNetwork
  let journal: ReportJournal
  let spool: ScenarioSpool?
  let start: RunStart
  let stops: StopControl

  func run(_ bound: BoundRun) async -> [RunReport] {
    let (secrets, reporters) = (configuration.secrets, configuration.reporters)
    let chromium = ChromiumHost(observe: Self.chromiumObserver(secrets: secrets, trace: configuration.trace))
    var services = RunServices(
      secrets: secrets, transport: network.transport, environment: configuration.environment, chromium: chromium)
    services.recordsExchanges = reporters.needsStepResults
    services.stops = stops.record
    var runs = bound.runs(
      services: services, jobs: configuration.jobs, keepsStepResults: reporters.needsStepResults, spool: spool)
    let progress =
      configuration.showsProgress ? ProgressDisplay.live(total: start.scenarioCount, secrets: secrets) : nil
    var observers = configuration.observers
    if journal.isNeeded { observers.append(journal) }
    if let progress { observers.append(progress) }
    runs.observer = reporters.observer(adding: observers)
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
    // Every chromium this run started. (The process's safety net, `LaunchedProcesses.killAll()`,
    // is the command's: it stops any chromium for good, other sessions' too.)
    await chromium.shutdown()
    return reports
  }

  /// What chromium fetched: its secrets learnt, and with a trace each request and response head
  /// written, masked as the built-in driver's exchanges are.
  static func chromiumObserver(
    secrets: SecretRegistry, trace: (@Sendable (String) -> Void)?
  ) -> @Sendable (HTTPExchange) -> Void {
    let formatter = ExchangeFormatter(revealSecrets: secrets.revealSecrets)
    return { exchange in
      SecretExtraction.register(exchange, in: secrets)
      trace?(secrets.scrub("[chromium] " + formatter.format(exchange)))
    }
  }
}
