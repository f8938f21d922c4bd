import AuthFlowCore
import AuthFlowHTTP
import AuthFlowReporting
import AuthFlowRun
import Foundation
import Synchronization

@testable import AuthFlowResults

/// Runs scenarios the way `authflow run` does — ``RunSession`` on files, with an `authflow.yaml`
/// of the test's — with every reporter, the trace and the run's own messages written to strings.
enum SessionHarness {
  struct Run {
    var outcome: RunSession.Outcome
    /// The console report and every report file.
    var reports: [String]
    /// What `--trace` wrote.
    var trace: [String]
    /// The run's own messages (errors, warnings, notices).
    var console: [String]

    /// Every output, the spool file's contents included.
    var texts: [String] {
      reports + trace + console + [outcome.spool.map { String(decoding: $0.contents(), as: UTF8.self) } ?? ""]
    }
  }

  /// Writes `scenarios` (file name → text) and `project` (the `authflow.yaml`, when given) into a
  /// fresh directory and runs them there, traced, with `reporters`; `adjust` sets the rest.
  static func run(
    scenarios: [(name: String, text: String)], project: String? = nil, extraPaths: [String] = [],
    reporters arguments: [String] = ["console", "junit:out.xml", "json:out.json", "github", "html:out.html"],
    reveal: Bool = false, adjust: (inout RunConfiguration) -> Void = { _ in }
  ) async throws -> Run {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for (name, text) in scenarios {
      let file = directory.appendingPathComponent(name)
      try text.write(to: file, atomically: true, encoding: .utf8)
      paths.append(file.path)
    }
    let secrets = SecretRegistry(revealSecrets: reveal)
    let captured = CapturedOutput()
    let context = ReporterContext(secrets: secrets, output: captured, environment: [:], isTerminal: false)
    var configuration = RunConfiguration(
      secrets: secrets, reporters: try ReporterRegistry.builtIn.make(arguments: arguments, context: context))
    configuration.paths = paths + extraPaths
    if let project {
      let file = directory.appendingPathComponent("authflow.yaml")
      try project.write(to: file, atomically: true, encoding: .utf8)
      configuration.configFile = file.path
    }
    configuration.environment = [:]
    let trace = Mutex<[String]>([])
    let console = Mutex<[String]>([])
    configuration.trace = { text in trace.withLock { $0.append(text) } }
    configuration.console = RunConsole(
      out: { line in console.withLock { $0.append(line) } }, error: { line in console.withLock { $0.append(line) } })
    adjust(&configuration)
    let outcome = await RunSession(configuration).run()
    let reports = [await captured.console] + (await captured.files.values)
    return Run(outcome: outcome, reports: reports, trace: trace.withLock { $0 }, console: console.withLock { $0 })
  }
}
