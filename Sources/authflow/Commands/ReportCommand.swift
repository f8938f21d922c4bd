import ArgumentParser
import AuthFlowCore
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRun
import Foundation

/// `authflow report`: work with the JSON reports runs wrote.
struct ReportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report", abstract: "Work with JSON reports: merge shards and tenants into any report.",
    subcommands: [ReportMergeCommand.self])
}

/// `authflow report merge FILE… --reporter …`: the JSON reports of the shards of a run (and of
/// runs on several tenants) as one report, in any format; exits with the merged run's verdict.
struct ReportMergeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merge JSON reports (the shards of a run, runs on several tenants) and write any reporter.",
    discussion: """
      Every shard of a run must be given once (a missing or repeated shard is an error), and no \
      scenario may be in two reports. Exit codes: the merged run's verdict (0 passed, 1 a scenario \
      failed or was interrupted, 3 an environment error), 2 for reports that cannot be merged or \
      bad usage, 3 when a report could not be written.
      """)

  @Argument(help: "The JSON reports (written by 'authflow run --reporter json:FILE').")
  var files: [String] = []

  @OptionGroup(title: "Reports")
  var reportOptions: ReportOptions

  func validate() throws {
    if files.isEmpty {
      throw ValidationError("give the JSON reports to merge, e.g. authflow report merge shard-*.json")
    }
  }

  func run() async throws {
    let secrets = SecretRegistry(revealSecrets: reportOptions.showSecrets)
    let reporters = try reportOptions.reporters(context: .live(secrets: secrets))
    // A report written over one being merged would lose it (the same file however named).
    let problems =
      reporters.checkReportPaths() + ReportPathCheck.overwrittenInputs(reporters.fileTargets, inputs: files)
    guard problems.isEmpty else {
      for problem in problems { Console.error("error: \(problem)") }
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    let report: RunReport
    switch Self.merge(files, showSecrets: reportOptions.showSecrets) {
    case .success(let merged): report = merged
    case .failure(let error):
      Console.error("error: \(error.description)")
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    let delivery = ReportDelivery(
      reporters: reporters, secrets: secrets, failOnSkip: reportOptions.failOnSkip)
    let code = await delivery.deliver(report)
    if code != .success { throw ExitCode(code.rawValue) }
  }

  /// Reads and merges the reports (``JSONReport/merge(_:showSecrets:)``).
  static func merge(_ files: [String], showSecrets: Bool) -> Result<RunReport, JSONReportError> {
    Result { () throws(JSONReportError) -> RunReport in
      var inputs: [JSONReport.Input] = []
      for file in files { inputs.append(try JSONReport.Input.read(file)) }
      return try JSONReport.merge(inputs, showSecrets: showSecrets)
    }
  }
}
