import ArgumentParser
import AuthFlowCore
import Foundation

/// `authflow`: declarative auth-flow scenarios against real and mock tenants.
@main
struct AuthFlowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "authflow",
    abstract: "Run declarative auth-flow scenarios against an Auth0 tenant, any OpenID Provider, or the built-in mock.",
    discussion: """
      Exit codes: 0 all passed, 1 a scenario failed, 2 invalid input or usage (also an unwritable \
      report path), 3 the tenant could not be reached or misbehaved, 130/143/129 stopped by \
      SIGINT/SIGTERM/SIGHUP, 141 standard output closed.
      """,
    version: "0.1.0",
    subcommands: [
      RunCommand.self, ValidateCommand.self, GraphCommand.self, ReportCommand.self, MockCommand.self,
      DoctorCommand.self, SchemaCommand.self, DocsCommand.self, BenchCommand.self, InboxCommand.self,
      MonitorCommand.self,
    ]
  )

  /// Runs the command; usage errors exit with 2 (docs/design.md §1), not ArgumentParser's 64.
  static func main() async {
    // Writes to a closed pipe return EPIPE instead of killing the process (StandardStreams).
    signal(SIGPIPE, SIG_IGN)
    EarlySignals.capture()
    do {
      // The cold start of `authflow validate PATH…` without ArgumentParser (see `plainPaths`).
      if let paths = ValidateCommand.plainPaths(Array(CommandLine.arguments.dropFirst())) {
        EarlySignals.release()
        try await ValidateCommand.validate(paths: paths, config: nil)
        return
      }
      var command = try parseAsRoot()
      if !(command is RunCommand || command is MockCommand) { EarlySignals.release() }
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      EarlySignals.release()
      let code = exitCode(for: error)
      if code == .validationFailure {
        StandardStreams.error(fullMessage(for: error) + "\n")
        Foundation.exit(2)
      }
      exit(withError: error)
    }
  }
}
