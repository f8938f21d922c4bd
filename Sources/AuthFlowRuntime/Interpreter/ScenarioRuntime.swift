import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP
import AuthFlowScenario

/// Everything the steps of one scenario instance share while it runs.
struct ScenarioRuntime: Sendable {
  let instance: ScenarioInstance
  let tenant: TenantContext
  private(set) var client: Value
  let services: RunServices
  let functions: FunctionRegistry
  let state: ScenarioState
  /// This instance's browsers: cookie jars are never shared between scenarios.
  let browsers: BrowserPool
  /// This instance's chromium contexts, closed when it ends.
  let chromium: ChromiumSessions
  /// The roots that do not change while the scenario runs.
  var fixedRoots: [String: Value]
  /// The steps before which the tenant's inbox is marked: those an action's step parameter names
  /// (``ActionTraits/inboxMarkParameter``, `outbox`'s `after:`). Empty without an inbox.
  let inboxMarkedSteps: Set<String>

  init(
    instance: ScenarioInstance, tenant: TenantContext, client: Value, services: RunServices, functions: FunctionRegistry
  ) {
    self.instance = instance
    self.tenant = tenant
    self.client = client
    self.services = services
    self.functions = functions
    self.state = ScenarioState()
    self.browsers = BrowserPool(
      transport: services.transport, callbackPrefixes: Array(Set(tenant.callbackPrefixes)).sorted())
    self.chromium = ChromiumSessions(host: services.chromium)
    let scenario = instance.scenario
    self.inboxMarkedSteps = tenant.inbox == nil ? [] : InboxMark.markedSteps(in: scenario.steps + scenario.cleanup)
    self.fixedRoots = [
      "tenant": tenant.value,
      "client": client,
      "env": services.environmentValue,
      "scenario": .object([
        "name": .string(instance.name),
        "title": .string(scenario.title.value),
        "file": .string(scenario.file),
        "tags": .array(scenario.tags.map { .string($0.value) }),
      ]),
      "credentials": .object([:]),
    ]
  }

  /// The same runtime (state, browsers and cookies shared) with another client profile: a step's
  /// own `client:`, both for its action and for the `client` root of its expressions.
  func using(client profile: Value) -> ScenarioRuntime {
    var runtime = self
    runtime.client = profile
    runtime.fixedRoots["client"] = profile
    return runtime
  }

  var reveal: Bool { services.secrets.revealSecrets }

  func evaluationContext() async -> EvaluationContext {
    let (variables, steps, credentials, offset) = await state.snapshot()
    var roots = fixedRoots
    roots["vars"] = .object(variables)
    roots["steps"] = .object(steps)
    roots["credentials"] = credentials
    guard offset != 0 else { return EvaluationContext(roots: roots, functions: functions) }
    // `now()` follows the scenario's device clock once `mock_clock` has moved it.
    return EvaluationContext(roots: roots, functions: functions, now: { EvaluationContext.systemClock() + offset })
  }

  func actionContext(stepID: String) -> ActionContext {
    ActionContext(
      tenant: tenant, client: ClientProfile(client), services: services, stepID: stepID, state: state,
      browsers: browsers,
      chromium: chromium)
  }

  /// A value as a failure message shows it: JSON, secrets masked unless `--show-secrets`.
  func show(_ value: Value) -> String {
    scrub(value.jsonText(revealSecrets: reveal))
  }

  func scrub(_ text: String) -> String {
    services.secrets.scrub(text)
  }
}
