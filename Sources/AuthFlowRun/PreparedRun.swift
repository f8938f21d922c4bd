public import AuthFlowCore
public import AuthFlowHTTP
import AuthFlowMockHosting
public import AuthFlowResults
public import AuthFlowRuntime
public import AuthFlowScenario
import Foundation
import Tracing

/// A run made ready once and run many times: its files parsed and validated, its plan made, its
/// tenants bound (embedded mocks started, real ones discovered), every selected instance loaded.
/// `authflow monitor` keeps one and runs its ``targets`` on a schedule; ``RunSession/run(stops:)``
/// is the same stages run once. Each ``run(_:observer:)`` gets secrets of its own (the profiles'
/// known, its tokens forgotten with it) and a fresh JWKS cache, so a service's memory does not
/// grow with its runs and a key rotation is seen by the next run.
public struct PreparedRun: Sendable {
  /// One scenario instance on one tenant: what a monitor schedules.
  public struct Target: Sendable, Identifiable {
    /// `TENANT/FILE#INDEX`: stable while the files keep their instances.
    public var id: String
    public var scenario: String
    public var file: String
    public var tags: [String]
    public var tenant: String
    /// Moves the mock's clock: runs with nothing else running on that tenant.
    public var movesMockClock: Bool
    let tenantIndex: Int
    let instance: Result<ScenarioInstance, InstanceLoadFailure>
  }

  public let configuration: RunConfiguration
  public let project: ProjectConfig
  public let targets: [Target]
  public let tenants: [TenantContext]
  /// The run's transport (paced, retrying): a service reaches the tenants through it too.
  public let network: RunNetwork
  let bound: BoundRun
  let chromium: ChromiumHost

  /// Runs one target: its report, with the observer told of its steps. Cancelling the task
  /// cuts the scenario short (its cleanup runs; it is reported interrupted). With
  /// `recordsExchanges` each step keeps its HTTP exchanges, masked (a status page shows them);
  /// by default only when a reporter of the configuration writes them.
  public func run(
    _ target: Target, observer: (any RunObserver)? = nil, recordsExchanges: Bool? = nil
  ) async -> ScenarioReport {
    guard let tracer = configuration.tracer else {
      return await runUntraced(target, observer: observer, recordsExchanges: recordsExchanges)
    }
    return await withTracer(tracer) {
      await runUntraced(target, observer: observer, recordsExchanges: recordsExchanges)
    }
  }

  private func runUntraced(
    _ target: Target, observer: (any RunObserver)?, recordsExchanges: Bool?
  ) async -> ScenarioReport {
    switch target.instance {
    case .failure(let failure):
      await observer?.scenarioStarted(name: failure.report.name, file: failure.report.file)
      await observer?.scenarioFinished(failure.report)
      return failure.report
    case .success(let instance):
      let secrets = configuration.secrets.copy()
      var services = RunServices(
        secrets: secrets, transport: network.transport, environment: configuration.environment, chromium: chromium)
      services.recordsExchanges = recordsExchanges ?? configuration.reporters.needsStepResults
      let interpreter = ScenarioInterpreter(
        tenant: tenants[target.tenantIndex], services: services, functions: Pipeline.functions,
        observer: observer.map { RedactingObserver(base: $0, secrets: secrets) })
      var report = await interpreter.run(instance)
      if tenants.count > 1 { report.tenant = target.tenant }
      return report.redacted(by: secrets)
    }
  }

  /// Stops the embedded mocks, chromium and the transport's connections.
  public func stop() async {
    await bound.stop()
    await chromium.shutdown()
    await network.shutdown()
  }
}

/// Hands the observer each step with the run's secrets masked, as the reports mask them.
struct RedactingObserver: RunObserver {
  let base: any RunObserver
  let secrets: SecretRegistry

  func scenarioStarted(name: String, file: String) async {
    await base.scenarioStarted(name: name, file: file)
  }

  func stepFinished(_ step: StepReport, scenario: String) async {
    await base.stepFinished(step.redacted(by: secrets), scenario: scenario)
  }

  func scenarioFinished(_ report: ScenarioReport) async {
    await base.scenarioFinished(report.redacted(by: secrets))
  }
}

extension RunSession {
  /// Why a run could not be prepared: the exit code `authflow run` would end with (what went
  /// wrong is on the configuration's console).
  public struct PreparationFailure: Error, Sendable {
    public var exitCode: AuthFlowExitCode
  }

  /// The stages before the results — parsed, validated, planned, bound, loaded — as
  /// ``run(stops:)`` makes them, kept for many runs (``PreparedRun``). Diagnostics, an unknown
  /// tenant or tag, an empty selection, a tenant that cannot be reached and an unset variable
  /// are printed on the console, as `authflow run` prints them.
  public func prepare() async throws(PreparationFailure) -> PreparedRun {
    do {
      return try await prepareOrExit()
    } catch {
      throw PreparationFailure(exitCode: error.code)
    }
  }

  private func prepareOrExit() async throws(Exit) -> PreparedRun {
    let console = configuration.console
    let source = ScenarioSource(paths: configuration.paths, configFile: configuration.configFile)
    let suite = await source.planned(embedded: MockTenantHost())
    console.print(suite.diagnostics, sources: suite.sources)
    guard suite.isValid else { throw Exit(code: .invalidInput) }
    let plan = try makePlan(suite, paths: source.paths)
    let network = RunNetwork(configuration)
    let bound = try await bindChecked(plan, network: network, sources: suite.sources)
    let chromium = ChromiumHost(
      observe: RunExecution.chromiumObserver(secrets: configuration.secrets, trace: configuration.trace))
    let loaded = plan.instances.loadedAll()
    let tenants = bound.tenants.map(\.context)
    var targets: [PreparedRun.Target] = []
    for (tenantIndex, tenant) in tenants.enumerated() {
      for (position, planned) in plan.instances.enumerated() {
        targets.append(
          PreparedRun.Target(
            id: "\(tenant.name)/\(planned.file)#\(planned.index)", scenario: planned.name, file: planned.file,
            tags: planned.tags, tenant: tenant.name, movesMockClock: planned.movesMockClock,
            tenantIndex: tenantIndex, instance: loaded[position]))
      }
    }
    return PreparedRun(
      configuration: configuration, project: suite.project, targets: targets, tenants: tenants, network: network,
      bound: bound, chromium: chromium)
  }
}
