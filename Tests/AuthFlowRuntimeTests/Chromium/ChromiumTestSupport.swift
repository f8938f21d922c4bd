import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real-browser driver's suites, one at a time (each starts a chromium; several at once would
/// load a shared machine for every other test), skipped with the reason when chromium is missing.
@Suite(
  "chromium driver", .serialized, .enabled(if: ChromiumTestSupport.available, ChromiumTestSupport.skipReason))
enum ChromiumDriverTests {}

/// Runs scenarios with the real-browser driver: a `ChromiumHost` per run, stopped at the end, and
/// what is left of chromium afterwards (processes, profile directory) for the test to check.
enum ChromiumTestSupport {
  /// Whether chromium is installed; when it is not, the reason is printed (the suites that need
  /// it are skipped with it, never silently).
  static let available: Bool = {
    do {
      _ = try ChromiumHost.locateExecutable(environment: ProcessInfo.processInfo.environment)
      return true
    } catch {
      FileHandle.standardError.write(Data("SKIPPING the chromium driver tests: \(error)\n".utf8))
      return false
    }
  }()

  static let skipReason: Comment = "chromium is not installed (apt-get install chromium, or set AUTHFLOW_CHROMIUM)"

  /// What a run left behind.
  struct Outcome {
    var report: RunReport
    /// The chromium process group while it ran (nil: chromium was never started).
    var pid: Int32?
    /// True when that process is still alive after the run.
    var leftRunning: Bool
  }

  /// Collects `--trace`-style lines of chromium's exchanges.
  final class TraceLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  /// Runs scenarios against the embedded mock with `browser` as the tenant's engine (nil: the
  /// built-in driver unless a step asks for chromium).
  static func runOnMock(
    _ yamls: [String], browser: BrowserEngine? = nil, secrets: SecretRegistry = SecretRegistry(),
    trace: TraceLines? = nil, environment: [String: String]? = nil
  ) async throws -> Outcome {
    let resolver = TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    let profile = try requireValue(ProjectConfig.embedded.tenants.first)
    let tenant: ResolvedTenant
    do {
      tenant = try await resolver.resolve(profile)
    } catch {
      throw MockHarness.Failed(description: error.message)
    }
    var context = tenant.context
    if let browser { context.settings["browser"] = .string(browser.rawValue) }
    let outcome = try await run(yamls, tenant: context, secrets: secrets, trace: trace, environment: environment)
    await tenant.stop()
    return outcome
  }

  /// Runs scenarios against a tenant on loopback.
  static func run(
    _ yamls: [String], tenant: TenantContext, secrets: SecretRegistry = SecretRegistry(), trace: TraceLines? = nil,
    environment: [String: String]? = nil, configuration: ChromiumHost.Configuration = ChromiumHost.Configuration()
  ) async throws -> Outcome {
    let instances = try yamls.enumerated().flatMap { index, yaml in
      try ScenarioHarness.parse(yaml, file: "scenario\(index).yaml").instances
    }
    var configuration = configuration
    if let environment { configuration.environment = environment }
    let formatter = ExchangeFormatter(revealSecrets: false)
    let host = ChromiumHost(configuration: configuration) { exchange in
      SecretExtraction.register(exchange, in: secrets)
      trace?.append(formatter.format(exchange))
    }
    let transport = LiveTransport()
    let services = RunServices(secrets: secrets, transport: transport, environment: [:], chromium: host)
    let runner = Runner(tenant: tenant, services: services, functions: Pipeline.functions, jobs: 2)
    let (report, pid) = await BrowserTestLock.run {
      let report = await runner.run(instances)
      let pid = await host.processID
      await host.shutdown()
      return (report, pid)
    }
    try? await transport.shutdown()
    let leftRunning = pid.map { kill($0, 0) == 0 } ?? false
    return Outcome(report: report, pid: pid, leftRunning: leftRunning)
  }
}
