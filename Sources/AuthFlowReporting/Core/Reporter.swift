public import AuthFlowResults
public import Foundation

/// One output format of a run: the console, a JUnit XML file, a JSON file, GitHub annotations.
///
/// Reporters are self-describing plug-ins (``description``) listed in ``ReporterRegistry``. The CLI
/// builds one per `--reporter` value, hands the live ``observer``s to the runner, calls
/// ``runStarted(_:)`` before the first scenario and ``finish(_:)`` with the report — also a partial
/// one when the run was interrupted.
///
/// Every reporter redacts: it writes ``RunReport/redacted(by:)`` of what it is given (free text
/// through `SecretRegistry.scrub`, values through `jsonText(revealSecrets:)`).
public protocol Reporter: Sendable {
  /// The name used in `--reporter`, whether it takes a file, a summary and an example.
  static var description: ReporterDescription { get }

  /// Builds the reporter for one parsed `--reporter` value whose name is this reporter's.
  init(spec: ReporterSpec, context: ReporterContext)

  /// Receives progress while the run goes on; nil for reporters that only write at the end.
  var observer: (any RunObserver)? { get }

  /// Called once before the first scenario starts.
  func runStarted(_ run: RunStart) async

  /// Writes the output for `report`, which may be partial (`report.interrupted`).
  func finish(_ report: RunReport) async throws

  /// True when ``finish(_:)`` writes each step's result (`StepReport.result`). When no reporter
  /// of a run does, the runner drops results as each scenario ends, so a long run's memory does not
  /// grow with every token it received.
  var needsStepResults: Bool { get }

  /// The file this reporter replaces with each write (`junit:FILE`, `json:FILE`): checked before
  /// the run (``ReportPathCheck``) and rewritten as scenarios finish (``ReportJournal``). Nil for
  /// reporters that write standard output or append.
  var reportPath: String? { get }
}

extension Reporter {
  public var observer: (any RunObserver)? { nil }
  public var needsStepResults: Bool { false }
  public var reportPath: String? { nil }
  public func runStarted(_ run: RunStart) async {}
}

/// A reporter that writes one file, rendered from the run's report (JSON, JUnit, HTML): the file is
/// its `reportPath` and `finish` writes it there, atomically. The text is streamed into the file
/// as it is rendered, one scenario at a time, so a long run's report is never one string in memory.
public protocol FileReporter: Reporter {
  var path: String { get }
  var context: ReporterContext { get }
  /// Writes the file's text for `report`, redacted, into `sink`.
  func render(_ report: RunReport, into sink: inout ReportTextSink)
}

extension FileReporter {
  public var reportPath: String? { path }

  public func finish(_ report: RunReport) async throws {
    try await context.output.write(toFile: path) { render(report, into: &$0) }
  }

  /// The file's text for `report`, redacted, as one string.
  public func render(_ report: RunReport) -> String {
    ReportTextSink.collect { render(report, into: &$0) }
  }
}

/// What is known when a run starts.
public struct RunStart: Sendable, Hashable {
  public var tenant: String
  /// How many scenario instances were selected (after tags and sharding).
  public var scenarioCount: Int
  public var startedAt: Date

  public init(tenant: String, scenarioCount: Int, startedAt: Date) {
    self.tenant = tenant
    self.scenarioCount = scenarioCount
    self.startedAt = startedAt
  }
}
