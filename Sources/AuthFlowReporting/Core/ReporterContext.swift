public import AuthFlowCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What reporters need from the outside world, injected so that tests capture everything.
public struct ReporterContext: Sendable {
  /// The run's secrets; `secrets.revealSecrets` is `--show-secrets`.
  public var secrets: SecretRegistry
  /// Where standard output and report files go.
  public var output: any ReportOutput
  /// The process environment (`NO_COLOR`, `TERM`, `GITHUB_STEP_SUMMARY`).
  public var environment: [String: String]
  /// True when standard output is a terminal (colors, unless `NO_COLOR`).
  public var isTerminal: Bool
  /// `--quiet`: the console prints no line per scenario, only its summary.
  public var quiet = false

  public init(
    secrets: SecretRegistry, output: any ReportOutput, environment: [String: String] = [:], isTerminal: Bool = false
  ) {
    self.secrets = secrets
    self.output = output
    self.environment = environment
    self.isTerminal = isTerminal
  }

  /// The real thing: standard output, the file system, the process environment.
  public static func live(secrets: SecretRegistry) -> ReporterContext {
    ReporterContext(
      secrets: secrets, output: FileSystemOutput(), environment: ProcessInfo.processInfo.environment,
      isTerminal: isatty(STDOUT_FILENO) == 1)
  }
}
