public import AuthFlowCore
public import AuthFlowHTTP
public import AuthFlowReporting
public import AuthFlowResults
public import AuthFlowRuntime
import Foundation
public import Tracing

/// Everything a run is made from: what to run, where, how fast, and who hears of it. `authflow
/// run` fills it from its flags; a test or an embedding service fills it by hand and gets the same
/// run (``RunSession``).
public struct RunConfiguration: Sendable {
  /// Scenario files or directories (empty: `scenarios/`).
  public var paths: [String] = []
  /// The tenant profiles file (nil: `authflow.yaml` beside the scenarios).
  public var configFile: String?
  /// The tenant profiles to run on, in order (nil: `default_tenant`, else the embedded mock).
  public var tenants: [String]?
  /// `--tag`, `--skip-tag`, `--shard`.
  public var selection = Selection()
  /// Whether an empty selection (and an unknown tag) is a warning rather than an error.
  public var allowEmpty = false
  /// How many scenarios run at once.
  public var jobs = 4

  /// The run's secrets: `revealSecrets` is `--show-secrets`. The reporters were made with them.
  public var secrets: SecretRegistry
  /// The reports to write (their paths are checked before anything runs).
  public var reporters: ReporterGroup
  /// Observers beside the reporters (a service's metrics), told of every scenario and step.
  public var observers: [any RunObserver] = []
  /// `--fail-on-skip`: a skip turns the verdict red.
  public var failOnSkip = false

  /// Where `--trace` writes each exchange, already masked (nil: no trace).
  public var trace: (@Sendable (String) -> Void)?
  /// `--quiet`: no notice of where the reports went.
  public var quiet = false
  /// Whether the live progress line is drawn (the caller knows whether standard error is a terminal).
  public var showsProgress = false
  /// Where messages about the run go (errors, warnings, notices).
  public var console = RunConsole.standard

  /// The transport's limits (`--connect-timeout`, `--request-timeout`, `--max-response-size`).
  public var transport = LiveTransport.Configuration()
  /// The retries of a request answered 429 (`--rate-limit-retries`, `--rate-limit-max-wait`);
  /// its `requestTimeout` is the transport's.
  public var retry = RetryingTransport.Policy()
  /// Whether requests are paced by the tenants' rate limits (`--no-pacing` turns it off).
  public var pacing = true
  /// `--run-timeout`: the whole run's limit, and the limit as the user wrote it.
  public var runTimeout: (limit: Duration, written: String)?
  /// The process environment the scenarios' `env.NAME` read.
  public var environment: [String: String] = ProcessInfo.processInfo.environment

  /// Where the run's spans go — one per scenario run, a child per step, a child of that per HTTP
  /// exchange, the trace context sent to the tenant (`authflow run --otlp-endpoint`, a test's
  /// in-memory tracer); nil: no spans, nothing injected.
  public var tracer: (any Tracer)?

  /// Starts the SMTP receivers tenants' `inbox.smtp` ask for and reads IMAP mailboxes
  /// (``RunInboxHost``; the monitor shares receivers between the sets it reloads: ``SharedInboxHost``).
  public var inboxHost: any InboxHost = RunInboxHost()

  /// Wraps the transport every tenant is reached through, inside the tracing, pacing and retries
  /// (a test records what the tenants answered here).
  public var transportLayer: (@Sendable (any HTTPTransport) -> any HTTPTransport)?
  /// Called once every scenario has a result, before the tenants stop (a test reads the mock's
  /// outbox here), with each tenant's base URL and the run's transport.
  public var beforeTenantsStop: (@Sendable (_ baseURLs: [String], _ transport: any HTTPTransport) async -> Void)?

  /// A configuration whose reports go to `reporters`, made with `secrets`.
  public init(secrets: SecretRegistry, reporters: ReporterGroup) {
    self.secrets = secrets
    self.reporters = reporters
  }
}

/// Where the run's own messages go: diagnostics, errors, warnings and notices (the reporters
/// write the reports).
public struct RunConsole: Sendable {
  /// A line for standard output.
  public var out: @Sendable (String) -> Void
  /// A line for standard error.
  public var error: @Sendable (String) -> Void
  /// Whether diagnostics are drawn in color.
  public var colors: Bool

  public init(
    out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, colors: Bool = false
  ) {
    self.out = out
    self.error = error
    self.colors = colors
  }

  /// Standard output and standard error, one line at a time (a closed output never traps; see
  /// ``AuthFlowCore/StandardStreams``); diagnostics in color on a terminal without `NO_COLOR`.
  public static var standard: RunConsole {
    RunConsole(
      out: { StandardStreams.output($0 + "\n") }, error: { StandardStreams.error($0 + "\n") },
      colors: isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
  }

  /// Writes diagnostics with snippets of their sources (`sources` by path, else read from disk),
  /// then how many were errors.
  public func print(_ diagnostics: [Diagnostic], sources: [String: String], revealSecrets: Bool = false) {
    guard !diagnostics.isEmpty else { return }
    let renderer = DiagnosticRenderer(colors: colors, revealSecrets: revealSecrets) { path in
      sources[path] ?? SourceText.read(path)
    }
    error(renderer.render(diagnostics.sortedByLocation))
    let errors = diagnostics.count { $0.isError }
    if errors > 0 {
      error("\(errors) error\(errors == 1 ? "" : "s") found.")
    }
  }
}
