import AuthFlowCore
import AuthFlowResults
import AuthFlowScenario

/// `authflow doctor --probe`: learns the capabilities no discovery document states by trying a
/// flow, with the same interpreter and `web_auth` driver `authflow run` uses:
///
/// - `pkce` (S256; discovered from `code_challenge_methods_supported`, probed for providers whose
///   document leaves it out): two codes requested with an S256 challenge; shown when the one
///   exchanged with a wrong `code_verifier` is refused with `invalid_grant` and the one exchanged
///   with the right verifier is accepted (RFC 7636 §4.6).
/// - `sso_session`: sign in, then send a second authorization request in the same browser; the
///   provider keeps a login session when it answers at the callback without the login page.
/// - `pkce_required`: an authorization request without `code_challenge` (through the login page
///   when one is shown); PKCE is enforced when the provider refuses it at the redirect URI
///   (RFC 7636 §4.4.1), or refuses the exchange of its code without `code_verifier` with
///   `invalid_request` / `invalid_grant` (another error may be about client authentication:
///   inconclusive).
/// - `refresh_token_rotation`: sign in with `offline_access`, refresh, then present the old
///   refresh token again; rotation is shown by a new refresh token and the old one refused.
///
/// Each outcome is evidence (the capability is shown), an absence (what was seen instead), or
/// inconclusive (the probe could not get that far: its reason). Never a guess: a probe that did
/// not see the behaviour says so. The probes sign in as one user of the profile (`alice` when
/// there is one) with one client (`native` when there is one).
public struct CapabilityProbe: Sendable {
  /// What one probe found.
  public enum Finding: Sendable, Equatable {
    case shown(String)
    case absent(String)
    case inconclusive(String)
  }

  public var services: RunServices

  public init(services: RunServices) {
    self.services = services
  }

  /// The capabilities probed, in report order.
  public static let capabilities = ["pkce", "pkce_required", "refresh_token_rotation", "sso_session"]

  /// Runs every probe against `tenant`, one after another.
  public func run(_ tenant: TenantContext) async -> [String: Finding] {
    guard let client = Self.client(in: tenant) else {
      return Dictionary(uniqueKeysWithValues: Self.capabilities.map { ($0, .inconclusive(Messages.noClient)) })
    }
    guard let user = Self.user(in: tenant) else {
      return Dictionary(uniqueKeysWithValues: Self.capabilities.map { ($0, .inconclusive(Messages.noUser)) })
    }
    var findings: [String: Finding] = [:]
    for capability in Self.capabilities {
      // What discovery shows needs no probe.
      if let evidence = tenant.capabilityEvidence[capability], evidence.hasPrefix("discovery") { continue }
      let text = Self.scenario(capability, client: client, user: user)
      guard let steps = await steps(of: text, capability: capability, tenant: tenant) else {
        findings[capability] = .inconclusive(Messages.notRun)
        continue
      }
      findings[capability] = Self.interpret(capability, steps: steps, client: client)
    }
    return findings
  }

  /// The client the probes use: `native` when it has a redirect URI, else the first (by name)
  /// with one whose grants allow the code flow.
  public static func client(in tenant: TenantContext) -> String? {
    let usable = tenant.clients.filter { _, client in ClientProfile(client).usesCodeFlow }
    if usable["native"] != nil { return "native" }
    return usable.keys.sorted().first { $0.isProbeName }
  }

  /// The user the probes sign in as: `alice` when there is one, else the first (by name) with an
  /// email and a password.
  public static func user(in tenant: TenantContext) -> String? {
    let usable = tenant.users.filter { _, user in
      user.member("email")?.stringValue != nil && user.member("password") != nil
    }
    if usable["alice"] != nil { return "alice" }
    return usable.keys.sorted().first { $0.isProbeName }
  }

  /// The probe scenario for `capability` (names are identifiers: checked by the callers).
  static func scenario(_ capability: String, client: String, user: String) -> String {
    let login = "login: { email: \"${{ vars.user.email }}\", password: \"${{ vars.user.password }}\" }"
    let header = """
      scenario: doctor probe \(capability)
      client: \(client)
      vars:
        user: ${{ tenant.users.\(user) }}
      steps:

      """
    switch capability {
    case "sso_session":
      return header + """
          - id: first
            web_auth: { browser: probe-session, scope: openid, \(login) }
          - id: second
            web_auth: { browser: probe-session, scope: openid, stop_at: login }
            expect: { error.code: { not_equals: "" } }
        """
    case "pkce":
      return header + """
          - id: wrong
            web_auth:
              browser: probe-pkce-s256
              scope: openid
              parameters: { code_challenge: "\(Self.challenge)", code_challenge_method: S256 }
              \(login)
              stop_at: callback
          - id: wrong_exchange
            token:
              body:
                grant_type: authorization_code
                code: ${{ url_query(steps.wrong.page.url, "code") }}
                code_verifier: wrong-verifier-wrong-verifier-wrong-verifier-00
                redirect_uri: ${{ client.redirect_uri }}
            expect: { error.code: { not_equals: "" } }
          - id: right
            needs: [wrong_exchange]
            web_auth:
              browser: probe-pkce-s256
              scope: openid
              parameters: { code_challenge: "\(Self.challenge)", code_challenge_method: S256 }
              \(login)
              stop_at: callback
          - id: right_exchange
            token:
              body:
                grant_type: authorization_code
                code: ${{ url_query(steps.right.page.url, "code") }}
                code_verifier: \(Self.verifier)
                redirect_uri: ${{ client.redirect_uri }}
            expect: { error.code: { not_equals: "" } }
        """
    case "pkce_required":
      return header + """
          - id: authorize
            web_auth:
              browser: probe-pkce
              scope: openid
              parameters: { code_challenge: null, code_challenge_method: null }
              \(login)
              stop_at: callback
            expect: { error.code: { not_equals: "" } }
          - id: exchange
            if: ${{ steps.authorize.page.url != null && url_query(steps.authorize.page.url, "code") != null }}
            token:
              body:
                grant_type: authorization_code
                code: ${{ url_query(steps.authorize.page.url, "code") }}
                redirect_uri: ${{ client.redirect_uri }}
            expect: { error.code: { not_equals: "" } }
        """
    default:
      return header + """
          - id: sign_in
            web_auth: { browser: probe-rotation, scope: openid offline_access, \(login) }
          - id: refresh
            renew: { refresh_token: "${{ steps.sign_in.refresh_token }}" }
          - id: reuse
            renew: { refresh_token: "${{ steps.sign_in.refresh_token }}" }
            expect: { error.code: { not_equals: "" } }
        """
    }
  }

  /// A PKCE verifier and its S256 challenge (RFC 7636 §4.1, §4.2).
  static let verifier = "dBjftJeZ4CVP-mJ92K9nSHt6BmS4HkLRfTLAsnW9GNM"
  static let challenge = "GVNaaO7DAsudJYEMRY-fz3MwZHD1iLlK3hHBf3lrjVg"

  /// Runs one probe scenario; nil when it does not validate (a bug, reported as inconclusive).
  private func steps(of text: String, capability: String, tenant: TenantContext) async -> [String: StepReport]? {
    let loader = ScenarioLoader(catalog: ActionRegistry.catalog, functions: Pipeline.functions)
    let (scenario, diagnostics) = loader.load(text: text, file: "doctor-probe-\(capability).yaml")
    guard let scenario, !diagnostics.hasErrors else { return nil }
    let runner = Runner(tenant: tenant, services: services, functions: Pipeline.functions, jobs: 1)
    let report = await runner.run(scenario.instances)
    guard let run = report.scenarios.first else { return nil }
    return Dictionary(run.steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// What the steps of a probe show.
  static func interpret(_ capability: String, steps: [String: StepReport], client: String) -> Finding {
    switch capability {
    case "sso_session": return session(steps)
    case "pkce": return s256(steps)
    case "pkce_required": return pkce(steps, client: client)
    default: return rotation(steps)
    }
  }

  private static func session(_ steps: [String: StepReport]) -> Finding {
    guard let first = steps["first"], first.status == .passed else {
      return .inconclusive(Messages.couldNotSignIn(steps["first"]))
    }
    guard let second = steps["second"], let result = second.result else {
      return .inconclusive(Messages.stepDidNotRun("second authorization request", steps["second"]))
    }
    let again = WebAuthResult(result)
    let pages = again.pageKinds
    if pages.last == PageKind.callback.rawValue, !pages.contains(PageKind.login.rawValue) {
      return .shown(Messages.sessionKept(pages))
    }
    if again.stoppedAtKind == PageKind.login.rawValue || pages.contains(PageKind.login.rawValue) {
      return .absent(Messages.sessionNotKept)
    }
    return .inconclusive(Messages.sessionUnclear(pages, error: result.protocolErrorCode))
  }

  private static func s256(_ steps: [String: StepReport]) -> Finding {
    guard let wrong = steps["wrong_exchange"]?.result else {
      return .inconclusive(Messages.stepDidNotRun("code exchange with a wrong code_verifier", steps["wrong_exchange"]))
    }
    guard let error = wrong.protocolErrorCode else {
      return .absent(Messages.wrongVerifierAccepted)
    }
    guard error == "invalid_grant" else { return .inconclusive(Messages.wrongVerifierOtherError(error)) }
    guard let right = steps["right_exchange"]?.result else {
      return .inconclusive(
        Messages.stepDidNotRun("code exchange with the right code_verifier", steps["right_exchange"]))
    }
    if let refused = right.protocolErrorCode {
      return .inconclusive(Messages.rightVerifierRefused(refused))
    }
    return .shown(Messages.verifierChecked)
  }

  private static func pkce(_ steps: [String: StepReport], client: String) -> Finding {
    guard let authorize = steps["authorize"], let result = authorize.result else {
      return .inconclusive(Messages.stepDidNotRun("authorization request without code_challenge", steps["authorize"]))
    }
    if let url = WebAuthResult(result).stoppedAtURL {
      let callback = CallbackParameters(url: url)
      if let error = callback["error"] {
        return .shown(Messages.pkceRefusedAtAuthorization(client: client, error: error))
      }
      guard callback["code"] != nil else { return .inconclusive(Messages.pkceNoCode) }
      guard let exchange = steps["exchange"], let answer = exchange.result else {
        return .inconclusive(Messages.stepDidNotRun("code exchange without code_verifier", steps["exchange"]))
      }
      if let error = answer.protocolErrorCode {
        // Only these say the verifier was missing; another (access_denied, invalid_client) may be
        // the client's authentication (RFC 6749 §5.2).
        guard ["invalid_request", "invalid_grant"].contains(error) else {
          return .inconclusive(Messages.pkceOtherTokenError(client: client, error: error))
        }
        return .shown(Messages.pkceRefusedAtToken(client: client, error: error))
      }
      if answer.member("access_token") != nil {
        return .absent(Messages.pkceNotEnforced(client: client))
      }
      return .inconclusive(Messages.pkceNoCode)
    }
    return .inconclusive(Messages.pkceErrorPage(result.protocolErrorDescription ?? result.protocolErrorCode))
  }

  private static func rotation(_ steps: [String: StepReport]) -> Finding {
    guard let signIn = steps["sign_in"], signIn.status == .passed, let result = signIn.result else {
      return .inconclusive(Messages.couldNotSignIn(steps["sign_in"]))
    }
    guard let original = result.member("refresh_token"), !original.isNull else {
      return .inconclusive(Messages.noRefreshToken)
    }
    guard let refresh = steps["refresh"], refresh.status == .passed, let renewed = refresh.result else {
      return .inconclusive(Messages.stepDidNotRun("refresh grant", steps["refresh"]))
    }
    guard let next = renewed.member("refresh_token"), !next.isNull, !next.matches(original) else {
      return .absent(Messages.noNewRefreshToken)
    }
    guard let reuse = steps["reuse"], let answer = reuse.result else {
      return .inconclusive(Messages.stepDidNotRun("second use of the old refresh token", steps["reuse"]))
    }
    if let error = answer.protocolErrorCode {
      return .shown(Messages.rotated(error: error))
    }
    return .absent(Messages.oldStillAccepted)
  }

  /// The probe's messages.
  enum Messages {
    static let noClient =
      "probe: no client profile with a redirect_uri and the authorization_code grant; nothing was probed"
    static let noUser = "probe: no user with an email and a password in the profile; nothing was probed"
    static let notRun = "probe: the probe scenario could not be prepared"
    static let sessionNotKept =
      "probe: a second authorization request in the same browser showed the login page again"
    static let pkceNoCode =
      "probe: the authorization request without code_challenge returned neither a code nor an error"
    static let noRefreshToken = "probe: no refresh token was issued for scope `openid offline_access`"
    static let noNewRefreshToken = "probe: the refresh grant returned no new refresh token"
    static let oldStillAccepted =
      "probe: the old refresh token was accepted again after the refresh grant had rotated it"

    static let wrongVerifierAccepted =
      "probe: a code requested with an S256 code_challenge was exchanged with a wrong code_verifier"
    static let verifierChecked =
      "probe: a code requested with an S256 code_challenge was refused with a wrong code_verifier (invalid_grant) and exchanged with the right one"

    static func wrongVerifierOtherError(_ error: String) -> String {
      "probe: the exchange with a wrong code_verifier was refused with \(error), not invalid_grant (RFC 7636 §4.6)"
    }

    static func rightVerifierRefused(_ error: String) -> String {
      "probe: the exchange with the right code_verifier was refused too (\(error))"
    }

    static func couldNotSignIn(_ step: StepReport?) -> String {
      "probe: could not sign in (\(reason(step)))"
    }

    static func stepDidNotRun(_ what: String, _ step: StepReport?) -> String {
      "probe: the \(what) did not complete (\(reason(step)))"
    }

    static func sessionKept(_ pages: [String]) -> String {
      "probe: a second authorization request in the same browser returned to the callback without the login page (pages: \(pages.joined(separator: ", ")))"
    }

    static func sessionUnclear(_ pages: [String], error: String?) -> String {
      "probe: the second authorization request ended neither at the callback nor on the login page (pages: \(pages.joined(separator: ", "))\(error.map { "; error \($0)" } ?? ""))"
    }

    static func pkceRefusedAtAuthorization(client: String, error: String) -> String {
      "probe: an authorization request of client '\(client)' without code_challenge was refused with error=\(error) at the redirect URI"
    }

    static func pkceRefusedAtToken(client: String, error: String) -> String {
      "probe: a code of client '\(client)' requested without code_challenge could not be exchanged without code_verifier (\(error))"
    }

    static func pkceOtherTokenError(client: String, error: String) -> String {
      "probe: the exchange of a code of client '\(client)' requested without code_challenge was refused with \(error), which does not say whether the missing code_verifier or the client's authentication was refused"
    }

    static func pkceNotEnforced(client: String) -> String {
      "probe: client '\(client)' obtained and exchanged a code without code_challenge and code_verifier"
    }

    static func pkceErrorPage(_ error: String?) -> String {
      "probe: the authorization request without code_challenge ended on a page, not at the redirect URI\(error.map { " (\($0))" } ?? "")"
    }

    static func rotated(error: String) -> String {
      "probe: the refresh grant returned a new refresh token, and the old one was then refused (\(error))"
    }

    private static func reason(_ step: StepReport?) -> String {
      guard let step else { return "the step did not run" }
      return step.problems.first?.message ?? step.skipReason ?? step.status.rawValue
    }
  }
}

extension String {
  /// A name a probe scenario can use after `tenant.users.` / `client:`.
  fileprivate var isProbeName: Bool {
    guard let first = unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}

extension CapabilityProbe {
  /// The doctor's lines for `findings` on `tenant`: a capability the probe showed passes; one the
  /// profile declares but the probe saw absent fails (the declaration is wrong); the rest inform.
  public static func checks(_ findings: [String: Finding], tenant: TenantContext) -> [DoctorReport.Check] {
    var checks: [DoctorReport.Check] = []
    for capability in capabilities {
      guard let finding = findings[capability] else { continue }
      let has = tenant.capabilities.contains(capability)
      switch finding {
      case .shown(let evidence):
        let note =
          has ? "" : " — not declared: add it to the tenant's `capabilities` to run the scenarios that require it"
        checks.append(.init(.capabilities, .passed, "\(capability) — \(evidence)\(note)"))
      case .absent(let absence) where has:
        checks.append(
          .init(
            .capabilities, .failed, "\(capability) is declared, but \(absence)",
            fix:
              "remove '\(capability)' from the `capabilities` of tenant '\(tenant.name)', or change the provider's settings"
          ))
      case .absent(let absence):
        checks.append(.init(.capabilities, .info, "no \(capability) — \(absence)"))
      case .inconclusive(let reason):
        checks.append(.init(.capabilities, .info, "\(capability) undetermined — \(reason)"))
      }
    }
    return checks
  }
}
