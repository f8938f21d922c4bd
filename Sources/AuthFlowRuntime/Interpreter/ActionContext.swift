public import AuthFlowCore
public import AuthFlowHTTP

/// What an action can use while it runs: the tenant, the selected client, the run's services
/// (HTTP, browsers, secrets, trace) and the scenario's variables.
public struct ActionContext: Sendable {
  public var tenant: TenantContext
  /// The scenario's client profile (`client:`), as an object (`client_id`, `redirect_uri`, …).
  public var client: Value
  public var services: RunServices
  /// The id of the step running the action.
  public var stepID: String
  let state: ScenarioState
  let browsers: BrowserPool

  init(
    tenant: TenantContext, client: Value, services: RunServices, stepID: String, state: ScenarioState,
    browsers: BrowserPool
  ) {
    self.browsers = browsers
    self.tenant = tenant
    self.client = client
    self.services = services
    self.stepID = stepID
    self.state = state
  }

  public var secrets: SecretRegistry { services.secrets }

  public var transport: any HTTPTransport { services.transport }

  /// The browser named `name` (its cookie jar is shared by every step of this scenario naming
  /// it); `default` when nil. Scenarios never share browsers.
  public func browser(named name: String?) async -> Browser {
    await browsers.browser(named: name ?? "default")
  }

  /// Sets `vars.NAME` for the steps that run after this one.
  public func setVariable(_ name: String, to value: Value) async {
    services.secrets.register(secretsIn: value)
    await state.setVariable(name, value)
  }
}
