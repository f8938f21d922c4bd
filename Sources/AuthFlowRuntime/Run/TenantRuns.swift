public import AuthFlowExpression
public import AuthFlowResults
public import AuthFlowScenario
import Foundation

/// `--tenant a,b`: the same selection run on each tenant in turn, one ``Runner`` per tenant, then
/// combined into one report for the reporters and compared (``TenantComparison``).
///
/// Tenants run one after another, not at once: each has its own rate limits and (for mocks) its
/// own clock, and a comparison is easier to read when one tenant's slowness does not show up in
/// another's timings.
public struct TenantRuns: Sendable {
  public var tenants: [TenantContext]
  public var services: RunServices
  public var functions: FunctionRegistry
  public var jobs: Int
  public var observer: (any RunObserver)?
  /// See ``Runner/keepsStepResults``.
  public var keepsStepResults: Bool
  /// See ``Runner/spool``: the tenants' reports one after another, each tenant's instances at
  /// positions `tenant index × instances + instance index`.
  public var spool: ScenarioSpool?

  public init(
    tenants: [TenantContext], services: RunServices, functions: FunctionRegistry, jobs: Int,
    observer: (any RunObserver)? = nil, keepsStepResults: Bool = true, spool: ScenarioSpool? = nil
  ) {
    self.tenants = tenants
    self.services = services
    self.functions = functions
    self.jobs = jobs
    self.observer = observer
    self.keepsStepResults = keepsStepResults
    self.spool = spool
  }

  /// One report per tenant, in the order of ``tenants``; every report lists the same instances in
  /// the same order. A cancelled run reports the tenants not reached as skipped (interrupted).
  public func run(_ instances: [ScenarioInstance]) async -> [RunReport] {
    await run(PlannedInstances(instances.map { PlannedInstance($0) }))
  }

  /// ``run(_:)-(ScenarioInstance)`` on planned instances, each loaded when it starts.
  public func run(_ instances: PlannedInstances) async -> [RunReport] {
    var reports: [RunReport] = []
    for (number, tenant) in tenants.enumerated() {
      let labelled: (any RunObserver)? =
        tenants.count > 1 ? observer.map { TenantLabelObserver(base: $0, tenant: tenant.name) } : observer
      let runner = Runner(
        tenant: tenant, services: services, functions: functions, jobs: jobs, observer: labelled,
        keepsStepResults: keepsStepResults, spool: spool, spoolBase: number * instances.count)
      reports.append(await runner.run(instances))
    }
    return reports
  }

  /// Every scenario the run will report, in report order (labelled with the tenant when there are
  /// several), each as not run: what a report says of a run stopped before it started.
  public func notRun(_ instances: [ScenarioInstance]) -> [ScenarioReport] {
    Self.notRun(instances, tenants: tenants.map(\.name))
  }

  /// ``notRun(_:)`` for tenants known by name only (before they are resolved).
  public static func notRun(_ instances: [ScenarioInstance], tenants: [String]) -> [ScenarioReport] {
    Array(notRun(PlannedInstances(instances.map { PlannedInstance($0, keeping: false) }), tenants: tenants))
  }

  /// ``notRun(_:tenants:)-(ScenarioInstance,_)`` of planned instances, each report made when it
  /// is read: the positions of ``spool``, tenant after tenant.
  public static func notRun(_ instances: PlannedInstances, tenants: [String]) -> ScenarioReports {
    let count = instances.count
    let labelled = tenants.count > 1
    return ScenarioReports(count: count * tenants.count, summary: .init(counts: [.interrupted: count * tenants.count]))
    {
      position in
      let report = instances[position % count].notRun
      return labelled ? report.labelled(tenant: tenants[position / count]) : report
    }
  }
}

/// Passes progress on with each scenario labelled with its tenant, as the combined report names it.
struct TenantLabelObserver: RunObserver {
  let base: any RunObserver
  let tenant: String

  func scenarioStarted(name: String, file: String) async {
    await base.scenarioStarted(name: RunReport.label(name, tenant: tenant), file: file)
  }

  func stepFinished(_ step: StepReport, scenario: String) async {
    await base.stepFinished(step, scenario: RunReport.label(scenario, tenant: tenant))
  }

  func scenarioFinished(_ report: ScenarioReport) async {
    await base.scenarioFinished(report.labelled(tenant: tenant))
  }
}
