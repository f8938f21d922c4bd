public import AuthFlowCore
public import AuthFlowHTTP

/// What an action can use while it runs: the tenant, the selected client, the run's services
/// (HTTP, browsers, secrets, trace) and the scenario's variables.
public struct ActionContext: Sendable {
  public var tenant: TenantContext
  /// The scenario's client profile (`client:`, or the step's own), read through its known keys.
  public var client: ClientProfile
  public var services: RunServices
  /// The id of the step running the action.
  public var stepID: String
  let state: ScenarioState
  let browsers: BrowserPool
  /// This scenario's chromium contexts (`browser: chromium`).
  let chromium: ChromiumSessions
  /// The protocol rules the tenant's answers broke during this attempt (``report(_:)``).
  let findings = StepFindings()

  init(
    tenant: TenantContext, client: ClientProfile, services: RunServices, stepID: String, state: ScenarioState,
    browsers: BrowserPool, chromium: ChromiumSessions
  ) {
    self.browsers = browsers
    self.chromium = chromium
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

  /// A new chromium tab in the context of the browser named `name` (`default` when nil), catching
  /// navigations to `callback` and to every client's `redirect_uri`.
  func chromiumPage(named name: String?, callback: String) async throws(ActionError) -> ChromiumPage {
    let prefixes = Set(tenant.callbackPrefixes + [callback])
    do {
      let context = try await chromium.context(named: name ?? "default")
      return try await chromium.host.openPage(context: context, callbackPrefixes: prefixes.sorted())
    } catch {
      throw .environment(error.message)
    }
  }

  /// Records a protocol rule the tenant's answer broke (``ProtocolFinding``): the step fails on it
  /// (or warns), unless its `expect` tests the same path.
  public func report(_ finding: ProtocolFinding) {
    findings.append(finding)
  }

  /// Records each of `findings`.
  public func report(_ findings: [ProtocolFinding]) {
    for finding in findings { report(finding) }
  }

  /// Sets `vars.NAME` for the steps that run after this one.
  public func setVariable(_ name: String, to value: Value) async {
    services.secrets.register(secretsIn: value)
    await state.setVariable(name, value)
  }
}
