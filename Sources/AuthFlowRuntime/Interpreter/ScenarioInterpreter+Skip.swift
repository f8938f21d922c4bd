import AuthFlowCore
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowScenario

extension ScenarioInterpreter {
  /// Why the scenario cannot run on this tenant, here, before any step (``TenantContext/skipReason(for:chromium:)``).
  func skipReason(for scenario: Scenario) -> String? {
    tenant.skipReason(for: scenario, chromium: services.chromium)
  }
}

extension TenantContext {
  /// Why the scenario cannot run on this tenant, here, before any step: pinned to another tenant,
  /// a capability the tenant lacks, a client profile it does not define (as `client:` or read as
  /// `tenant.clients.NAME`), a user profile it does not define (`tenant.users.NAME`), or a step that drives
  /// login pages in chromium (`browser: chromium`) on a machine without chromium (not judged
  /// without a `chromium` host). Nil when it can.
  func skipReason(for scenario: Scenario, chromium: ChromiumHost?) -> String? {
    let tenant = self
    if let pinned = scenario.tenant?.value, pinned != tenant.name {
      return SkipMessages.pinned(pinned, tenant: tenant.name)
    }
    let missing = tenant.missing(scenario.requires.map(\.value))
    if !missing.isEmpty {
      return StepMessages.missingCapabilities(missing, tenant: tenant)
    }
    let named = [scenario.client].compactMap { $0 } + (scenario.steps + scenario.cleanup).compactMap(\.client)
    if let client = named.first(where: { tenant.clients[$0.value] == nil }) {
      return SkipMessages.noClient(client.value, tenant: tenant.name)
    }
    // Read, a profile the tenant lacks would be null, and a check against it could hold vacuously.
    for reference in scenario.tenantProfileReferences {
      switch reference.kind {
      case .client where tenant.clients[reference.name] == nil:
        return SkipMessages.noClient(reference.name, tenant: tenant.name)
      case .user where tenant.users[reference.name] == nil:
        return SkipMessages.noUser(reference.name, tenant: tenant.name)
      default:
        continue
      }
    }
    if let step = firstChromiumStep(of: scenario), let missing = chromium?.notInstalled {
      return SkipMessages.noChromium(step: step.id.value, missing.message)
    }
    return nil
  }

  /// The first step that certainly drives its login pages in chromium: one whose action drives
  /// login pages (``ActionTraits/loginPagesBrowser``) with that parameter `chromium`, or without
  /// it on a tenant whose `browser` is `chromium`. (A browser given by an expression is only known
  /// when the step runs.)
  func firstChromiumStep(of scenario: Scenario) -> Step? {
    let tenantEngine = settings["browser"]?.stringValue.flatMap(BrowserEngine.init(rawValue:))
    return (scenario.steps + scenario.cleanup).first { step in
      guard let parameter = ActionRegistry.action(named: step.action.name.value)?.traits.loginPagesBrowser else {
        return false
      }
      let browser = step.action.parameters.member(parameter)
      if let browser, browser.literalValue == nil { return false }
      let named = browser?.literalValue?.stringValue
      return BrowserEngine.select(step: named, tenant: tenantEngine).engine == .chromium
    }
  }
}

/// Why a scenario was skipped before it started.
enum SkipMessages {
  static func pinned(_ pinned: String, tenant: String) -> String {
    "the scenario is pinned to tenant '\(pinned)' (this run uses '\(tenant)')"
  }

  static func noClient(_ client: String, tenant: String) -> String {
    "tenant '\(tenant)' has no client profile '\(client)'"
  }

  static func noUser(_ user: String, tenant: String) -> String {
    "tenant '\(tenant)' has no user profile '\(user)'"
  }

  /// `step 'login' needs chromium (browser: chromium), which is not installed here: chromium was
  /// not found (…)`.
  static func noChromium(step: String, _ reason: String) -> String {
    "step '\(step)' drives the login pages in chromium (browser: chromium), and this machine has none: \(reason)"
  }
}
