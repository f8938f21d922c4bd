import AuthFlowCore
import AuthFlowResults
import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowReporting

/// Fixed reports (fixed dates and durations) the reporter tests render.
enum ReportFixtures {
  /// 2025-01-02T03:04:05.678Z
  static let startedAt = Date(timeIntervalSince1970: 1_735_787_045.678)

  static func location(_ file: String, _ line: Int, _ column: Int) -> AuthFlowCore.SourceLocation {
    SourceLocation(file: file, line: line, column: column)
  }

  /// A compact JWS with a readable header and claims.
  static func jwt(subject: String) -> Value {
    let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"k1"}"#.utf8))
    let claims = Base64URL.encode(Array(#"{"sub":"\#(subject)","aud":"native"}"#.utf8))
    guard let token = JWTValue(raw: "\(header).\(claims).c2lnbmF0dXJl") else { return .null }
    return .jwt(token)
  }

  static let renew = "scenarios/renew.yaml"

  /// A failed scenario: a passing login, a renew, a failed expectation, a dependant skipped, cleanup.
  static let refresh = ScenarioReport(
    name: "Refresh tokens rotate and a reused one revokes the family", file: renew,
    location: location(renew, 2, 1), tags: ["renew", "smoke"], status: .failed, duration: .milliseconds(1570),
    steps: [
      StepReport(
        id: "login", name: "login", action: "web_auth", phase: .main, location: location(renew, 9, 5),
        status: .passed, duration: .milliseconds(820), attempts: 1,
        result: [
          "access_token": jwt(subject: "auth0|alice"), "refresh_token": .secret("v1.MRrt-opaque-token"),
          "token_type": "Bearer", "expires_in": 86400, "scope": "openid profile email offline_access",
        ]),
      StepReport(
        id: "reuse", name: "Reuse the old token", action: "renew", phase: .main, location: location(renew, 21, 5),
        status: .failed, duration: .milliseconds(310), attempts: 3,
        problems: [
          Problem(
            .expectation,
            "expected error.code to equal invalid_grant, found nothing at this path (the result has: access_token, refresh_token)",
            at: location(renew, 25, 19), path: "error.code", matcher: "equals", expected: "invalid_grant",
            actual: "nothing at this path (the result has: access_token, refresh_token)"),
          Problem(
            .expectation, #"expected error.description to equal "Unknown or invalid refresh token.", found nothing"#,
            at: location(renew, 26, 26), path: "error.description", matcher: "equals",
            expected: "Unknown or invalid refresh token.", actual: "nothing"),
        ],
        result: ["access_token": .secret("opaque-access-token"), "token_type": "Bearer"], needs: ["login"],
        exchanges: [
          "→ POST https://tenant.example/oauth/token\n  Content-Type: application/x-www-form-urlencoded\n\n  grant_type=refresh_token&refresh_token=***\n← 200 (12ms)\n  Content-Type: application/json\n\n  {\"access_token\":\"***\",\"token_type\":\"Bearer\"}"
        ]),
      StepReport(
        id: "family_revoked", name: "family_revoked", action: "renew", phase: .main,
        location: location(renew, 27, 5), status: .skipped, skipReason: "it needs step 'reuse', which did not pass",
        blockedBy: "reuse", needs: ["reuse"]),
      StepReport(
        id: "logout", name: "logout", action: "logout", phase: .cleanup, location: location(renew, 32, 5),
        status: .passed, duration: .milliseconds(40), attempts: 1, result: ["status": 302]),
    ])

  static let login = "scenarios/login.yaml"

  static func loginWorks(_ connection: String, milliseconds: Int64) -> ScenarioReport {
    ScenarioReport(
      name: "Login works [connection: \(connection)]", file: login, location: location(login, 1, 1), tags: ["smoke"],
      status: .passed, duration: .milliseconds(milliseconds),
      steps: [
        StepReport(
          id: "login", name: "login", action: "login", phase: .main, location: location(login, 6, 5), status: .passed,
          duration: .milliseconds(milliseconds), attempts: 1, result: ["id_token": jwt(subject: "auth0|bob")])
      ])
  }

  /// A scenario whose name and failure carry XML, Markdown and workflow-command specials.
  static let specials = ScenarioReport(
    name: #"Signup with screen_hint=signup & prompt="login" <new user>, 100%"#, file: login,
    location: location(login, 14, 1), tags: [], status: .failed, duration: .milliseconds(95),
    steps: [
      StepReport(
        id: "signup", name: "signup", action: "web_auth", phase: .main, location: location(login, 18, 5),
        status: .failed, duration: .milliseconds(95), attempts: 1,
        problems: [
          Problem(
            .expectation,
            "expected page.kind to equal signup, found login\nthe page said: <b>Log in</b> & \u{1B}[31mretry",
            at: location(login, 22, 17), path: "page.kind", matcher: "equals", expected: "signup",
            actual: "login")
        ])
    ])

  static let userinfo = "scenarios/userinfo.yaml"

  /// An environment error.
  static let unreachable = ScenarioReport(
    name: "Userinfo answers", file: userinfo, location: location(userinfo, 1, 1), tags: [], status: .error,
    duration: .milliseconds(2003),
    steps: [
      StepReport(
        id: "userinfo", name: "userinfo", action: "userinfo", phase: .main, location: location(userinfo, 5, 5),
        status: .error, duration: .milliseconds(2003), attempts: 1,
        problems: [
          Problem(
            .environment, "could not reach the tenant: connection refused (127.0.0.1:8100)",
            at: location(userinfo, 6, 7))
        ])
    ])

  /// Skipped for a missing capability: never started; its planned steps, none run.
  static let passwordless = planned(
    name: "Passwordless login", file: "scenarios/passwordless.yaml", tags: ["passwordless"], status: .skipped,
    reason: "tenant 'mock' lacks capability 'passwordless' (it has: organizations, refresh_token_rotation)")

  /// A scenario that never started, with the steps it planned: `start`, then `verify` needing it,
  /// then a cleanup `logout`.
  static func planned(name: String, file: String, tags: [String], status: Status, reason: String) -> ScenarioReport {
    let steps = [
      ("start", "passwordless_start", StepPhase.main, 5, [String]()),
      ("verify", "passwordless_login", .main, 8, ["start"]), ("logout", "logout", .cleanup, 12, []),
    ].map {
      id, action, phase, line, needs in
      StepReport(
        id: id, name: id, action: action, phase: phase, location: location(file, line, 5), status: status,
        skipReason: reason, needs: needs)
    }
    return ScenarioReport(
      name: name, file: file, location: location(file, 1, 1), tags: tags, status: status, skipReason: reason,
      duration: .zero, steps: steps, started: false)
  }

  /// A scenario whose file changed after it was validated: an error with its reason and no step.
  static let changedFile = RunReport(
    tenant: "mock", startedAt: startedAt, duration: .milliseconds(5),
    scenarios: [
      ScenarioReport(
        name: "Changed", file: "scenarios/changed.yaml", location: location("scenarios/changed.yaml", 1, 1), tags: [],
        status: .error,
        skipReason:
          "the scenario file changed after it was validated: scenarios/changed.yaml:1:1: error: not a scenario",
        duration: .zero, steps: [], started: false)
    ], interrupted: false)

  /// A run with every status.
  static let run = RunReport(
    tenant: "mock", startedAt: startedAt, duration: .milliseconds(3521),
    scenarios: [
      loginWorks("email", milliseconds: 412), loginWorks("sms", milliseconds: 388), specials, refresh, unreachable,
      passwordless,
    ], interrupted: false)

  /// A scenario cut short by the interruption: its main step was stopped, its cleanup passed.
  static let cutShort = ScenarioReport(
    name: "Slow login", file: userinfo, location: location(userinfo, 8, 1), tags: [], status: .interrupted,
    skipReason: "the run was interrupted by SIGTERM while this scenario was running", duration: .milliseconds(300),
    steps: [
      StepReport(
        id: "pause", name: "pause", action: "wait", phase: .main, location: location(userinfo, 10, 5),
        status: .interrupted, skipReason: "the run was interrupted by SIGTERM", duration: .milliseconds(290),
        attempts: 1),
      StepReport(
        id: "logout", name: "logout", action: "logout", phase: .cleanup, location: location(userinfo, 13, 5),
        status: .passed, duration: .milliseconds(10), attempts: 1),
    ])

  /// A run stopped by SIGTERM after two scenarios: one was cut short, the last never started.
  static let interrupted = RunReport(
    tenant: "mock", startedAt: startedAt, duration: .milliseconds(1201),
    scenarios: [
      loginWorks("email", milliseconds: 412), refresh, cutShort,
      planned(
        name: "Userinfo answers", file: userinfo, tags: [], status: .interrupted,
        reason: "the run was interrupted by SIGTERM before this scenario started"),
    ], interrupted: true, stopCause: .signal("SIGTERM"))

  /// A context that captures every output.
  static func context(
    _ output: CapturedOutput, secrets: SecretRegistry = SecretRegistry(), environment: [String: String] = [:],
    isTerminal: Bool = false
  ) -> ReporterContext {
    ReporterContext(secrets: secrets, output: output, environment: environment, isTerminal: isTerminal)
  }
}

/// Compares with a snapshot under `__Snapshots__`, recording it when missing.
func expectSnapshot(_ actual: String, named name: String, file: StaticString = #filePath) {
  if let mismatch = Snapshot.verify(actual, named: name, file: file) {
    Issue.record(Comment(rawValue: mismatch.description))
  }
}

extension ReportFixtures {
  static let planTag = "plan:oidcc-basic-certification-test-plan"

  /// A scenario of the conformance plan: `module: title`, one step with `problems`.
  static func module(
    _ module: String, status: Status, skipReason: String? = nil, stepName: String = "login",
    problems: [Problem] = []
  ) -> ScenarioReport {
    let file = "conformance-pack/basic/\(module).yaml"
    return ScenarioReport(
      name: "\(module): a module", file: file, location: location(file, 2, 1), tags: [planTag, "oidcc"],
      status: status, skipReason: skipReason, duration: .milliseconds(10),
      steps: [
        StepReport(
          id: "login", name: stepName, action: "web_auth", phase: .main, location: location(file, 10, 5),
          status: status == .skipped ? .skipped : status, duration: .milliseconds(10), attempts: 1,
          problems: problems)
      ])
  }

  /// A run of five plan modules, one of each result but interrupted, and a scenario of no plan.
  static let plan = RunReport(
    tenant: "conformance", startedAt: startedAt, duration: .milliseconds(900),
    scenarios: [
      module("oidcc-server", status: .passed),
      module(
        "oidcc-codereuse", status: .failed,
        problems: [
          Problem(
            .expectation, "expected value to equal 400, found 403", at: location("c.yaml", 50, 14), path: "value",
            matcher: "equals", expected: "400", actual: "403")
        ]),
      module(
        "oidcc-scope-email", status: .passed, stepName: "no_email",
        problems: [
          Problem(
            .action, "the token response has no expires_in (ExtractExpiresInFromTokenEndpointResponse, RFC 6749 §5.1)",
            at: location("e.yaml", 12, 5), severity: .warning)
        ]),
      module(
        "oidcc-display-page", status: .passed,
        problems: [
          Problem(.review, "for review: the login page shown", at: location("d.yaml", 20, 5), severity: .warning)
        ]),
      module("oidcc-refresh-token", status: .skipped, skipReason: "No refresh token was issued."),
      loginWorks("email", milliseconds: 30),
    ], interrupted: false)
}
