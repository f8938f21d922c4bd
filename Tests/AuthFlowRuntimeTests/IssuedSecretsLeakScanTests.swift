import AuthFlowCore
import AuthFlowHTTP
import AuthFlowReporting
import AuthFlowRun
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Synchronization
import Testing

@testable import AuthFlowResults

/// The leak scan of issue 12 item 5: scenarios that make the mock issue every kind of secret
/// (sign-up, password login, refresh tokens, MFA, passwordless email and SMS codes, a
/// password-reset ticket and an invitation link read by plain `http` steps, `mock_sign` and plain
/// `http` to `/__mock/sign`) run with tracing on and every reporter writing to strings. The
/// secrets are collected independently of authflow's registry — from the raw responses on the
/// wire and the mock's own outbox — and every output is searched for each in raw,
/// percent-encoded, JSON-escaped, base64 and base64url forms. The run spools its scenarios as
/// `authflow run` does, the reporters read them back from the spool, and the spool file itself is
/// one of the outputs searched.
@Suite("Every secret the mock issues is masked in every output")
struct IssuedSecretsLeakScanTests {
  static let issuingScenario = """
    scenario: Secrets the tenant issues, read by plain http steps
    client: native
    requires: [mock_control, organizations]
    vars:
      email: ${{ random_email() }}
      password: ${{ random_password() }}
    steps:
      - id: signup
        http:
          url: dbconnections/signup
          method: POST
          json:
            client_id: ${{ client.client_id }}
            email: ${{ vars.email }}
            password: ${{ vars.password }}
            connection: Username-Password-Authentication
        expect: { status: 200 }
      - id: login
        login:
          username: ${{ vars.email }}
          password: ${{ vars.password }}
          scope: openid profile email offline_access
        expect: { refresh_token: { exists: true } }
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
      - id: reset_request
        http:
          url: dbconnections/change_password
          method: POST
          json:
            client_id: ${{ client.client_id }}
            email: ${{ vars.email }}
            connection: Username-Password-Authentication
        expect: { status: 200 }
      - id: reset_mail
        outbox: { to: "${{ vars.email }}" }
        expect: { link: { exists: true } }
      - id: open_reset_link
        http: { url: "${{ steps.reset_mail.link }}" }
      - id: invite
        needs: []
        org_invitation: { organization: org_acme123, invitee: "invited-${{ vars.email }}", inviter: Alice }
      - id: invite_mail
        outbox: { to: "invited-${{ vars.email }}" }
      - id: read_invitation
        http: { url: "__mock/outbox?to=invited-${{ vars.email }}" }
        expect: { status: 200 }
      - id: open_invitation
        http:
          url: authorize?client_id=${{ client.client_id }}&response_type=code&redirect_uri=${{ client.redirect_uri }}&invitation=${{ steps.invite_mail.invitation }}&organization=org_acme123
          follow_redirects: false
      - id: read_reset_link
        needs: [reset_request]
        http: { url: "__mock/outbox?to=${{ vars.email }}" }
        expect: { status: 200 }
      - id: sign_action
        needs: []
        mock_sign: { claims: { nonce: n-1 } }
      - id: sign_http
        needs: []
        http:
          url: __mock/sign
          method: POST
          json: { claims: { nonce: n-2 } }
        expect: { status: 200 }
    """

  /// Failures whose messages would carry issued values: the links read by `http`, a token.
  static let failingScenario = """
    scenario: Failures quote what the tenant issued
    client: native
    requires: [mock_control, organizations]
    vars:
      email: ${{ random_email() }}
    steps:
      - id: invite
        org_invitation: { organization: org_acme123, invitee: "${{ vars.email }}", inviter: Alice }
      - id: read_invitation
        http: { url: "__mock/outbox?to=${{ vars.email }}" }
        expect:
          body.messages.0.link: not-this-link
      - id: signed
        needs: []
        http:
          url: __mock/sign
          method: POST
          json: { claims: { nonce: n-3 } }
        expect:
          body.token: not-this-token
    """

  static let bundled = [
    "authentication/passwordless-email.yaml", "authentication/passwordless-sms.yaml", "authentication/mfa.yaml",
    "authentication/revoke.yaml",
  ]

  /// Responses as they came off the wire, below authflow's learning and tracing.
  struct RecordingTransport: HTTPTransport {
    let base: any HTTPTransport
    let recorder: Recorder

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
      let response = try await base.send(request)
      recorder.responses.withLock { $0.append(response) }
      return response
    }
  }

  final class Recorder: Sendable {
    let responses = Mutex<[HTTPResponse]>([])
    let outbox = Mutex<[Value]>([])
  }

  /// The test's own list of what a tenant issues (not authflow's): tokens, codes, tickets,
  /// links, session ids, by the names Auth0 gives them.
  static let issuedNames: Set<String> = [
    "access_token", "id_token", "refresh_token", "token", "mfa_token", "oob_code", "recovery_code", "code",
    "ticket", "link", "invitation_url", "ticket_id", "invitation", "auth_session", "device_code", "session_token",
  ]

  /// Issued values in a JSON value (a `code` next to an `error`/`description` is an error code).
  static func issued(in value: Value, into found: inout Set<String>) {
    switch value {
    case .object(let members):
      let isError = members["error"] != nil || members["description"] != nil || members["message"] != nil
      for (name, member) in members {
        if issuedNames.contains(name), !(name == "code" && isError), let text = member.stringValue {
          found.insert(text)
          found.formUnion(issued(inURL: text))
        } else {
          issued(in: member, into: &found)
        }
      }
    case .array(let items): items.forEach { issued(in: $0, into: &found) }
    default: break
    }
  }

  /// The `code`, `ticket`, `invitation` and token parameters of a URL.
  static func issued(inURL url: String) -> [String] {
    guard let components = URLComponents(string: url) else { return [] }
    let fragment = URLComponents(string: "x:?" + (components.fragment ?? ""))?.queryItems ?? []
    return ((components.queryItems ?? []) + fragment).filter { issuedNames.contains($0.name) }.compactMap(\.value)
  }

  static func issued(by response: HTTPResponse) -> Set<String> {
    var found: Set<String> = []
    if let json = response.jsonValue { issued(in: json, into: &found) }
    if let location = response.headers["Location"] { found.formUnion(issued(inURL: location)) }
    for field in response.headers where field.name.lowercased() == "set-cookie" {
      let pair = field.value.prefix { $0 != ";" }
      if let equals = pair.firstIndex(of: "=") { found.insert(String(pair[pair.index(after: equals)...])) }
    }
    return found
  }

  /// The forms a value is searched for.
  static func forms(of secret: String) -> [String] {
    let data = Data(secret.utf8)
    let base64 = data.base64EncodedString()
    let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    let percent = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
    let json = secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    return Array(
      Set([
        secret, percent, json, json.replacingOccurrences(of: "/", with: "\\/"), base64,
        base64.replacingOccurrences(of: "=", with: ""), base64URL,
      ]))
  }

  struct Outputs {
    var texts: [String]
    /// The run's spool file, read whole (it is one of ``texts`` too).
    var spool: String
    var issued: Set<String>
    var report: RunReport
  }

  /// Runs every scenario the way `authflow run --trace --reporter …` does (``SessionHarness``),
  /// recording what the mock answered and, at the end, its outbox.
  func runEverything(reveal: Bool) async throws -> Outputs {
    let root = BundledScenarioTests.root
    let recorder = Recorder()
    let run = try await SessionHarness.run(
      scenarios: [("issuing.yaml", Self.issuingScenario), ("failing.yaml", Self.failingScenario)],
      extraPaths: Self.bundled.map { root.appendingPathComponent("scenarios/\($0)").path }, reveal: reveal
    ) { configuration in
      configuration.configFile = root.appendingPathComponent("authflow.yaml").path
      configuration.jobs = 2
      configuration.transportLayer = { RecordingTransport(base: $0, recorder: recorder) }
      configuration.beforeTenantsStop = { baseURLs, transport in
        // The mock's own record of every message it sent.
        guard let base = baseURLs.first else { return }
        let response = try? await transport.send(HTTPRequest(method: .get, url: base + "__mock/outbox"))
        if let messages = response?.jsonValue?.member("messages")?.arrayValue ?? response?.jsonValue?.arrayValue {
          recorder.outbox.withLock { $0 = messages }
        }
      }
    }
    let report = try #require(run.outcome.report, "\(run.console)")
    #expect(report.scenarios.isProduced)
    let spooled = String(decoding: try #require(run.outcome.spool).contents(), as: UTF8.self)
    var issued: Set<String> = []
    for response in recorder.responses.withLock({ $0 }) { issued.formUnion(Self.issued(by: response)) }
    for message in recorder.outbox.withLock({ $0 }) { Self.issued(in: message, into: &issued) }
    return Outputs(texts: run.texts, spool: spooled, issued: issued.filter { $0.count >= 6 }, report: report)
  }

  @Test("No issued value appears in any output, raw or encoded")
  func nothingIssuedLeaks() async throws {
    let outputs = try await runEverything(reveal: false)
    for scenario in outputs.report.scenarios {
      let expected: Status = scenario.file.hasSuffix("/failing.yaml") ? .failed : .passed
      #expect(scenario.status == expected, "\(scenario.name): \(scenario.problemSummary)")
    }
    // The run issued every kind of secret the scan is about.
    #expect(outputs.issued.count >= 25, "only \(outputs.issued.count) issued values collected")
    // The spool holds every scenario, results included, masked.
    #expect(outputs.spool.split(separator: "\n").count == outputs.report.scenarios.count)
    #expect(outputs.spool.contains("***"))
    var leaks: [String] = []
    for secret in outputs.issued {
      for form in Self.forms(of: secret) where outputs.texts.contains(where: { $0.contains(form) }) {
        leaks.append("\(secret.prefix(4))… (\(form == secret ? "raw" : "encoded"))")
      }
    }
    #expect(leaks.isEmpty, "\(leaks.count) leaked: \(leaks.sorted().joined(separator: ", "))")
  }

  @Test("With --show-secrets the issued values do appear (the scan is not vacuous)")
  func showSecretsReveals() async throws {
    let outputs = try await runEverything(reveal: true)
    let all = outputs.texts.joined(separator: "\n")
    let shown = outputs.issued.filter { all.contains($0) }
    #expect(shown.count * 2 >= outputs.issued.count, "\(shown.count) of \(outputs.issued.count) shown")
  }

  @Test("An error code is evidence: shown in a failure message and in the trace, never masked")
  func errorCodesAreNotMasked() async throws {
    let scenario = """
      scenario: Sign-up refused
      client: native
      steps:
        - id: signup_without_password
          http:
            url: dbconnections/signup
            method: POST
            json:
              client_id: ${{ client.client_id }}
              email: someone@example.com
              connection: Username-Password-Authentication
          expect:
            body.code: some_other_code
      """
    let secrets = SecretRegistry()
    let trace = Mutex<[String]>([])
    let formatter = ExchangeFormatter()
    let report = try await MockHarness.run(
      instances: try ScenarioHarness.parse(scenario).instances, secrets: secrets,
      wrap: { base in
        TracingTransport(wrapping: base) { exchange in
          SecretExtraction.register(exchange, in: secrets)
          trace.withLock { $0.append(secrets.scrub(formatter.format(exchange))) }
        }
      })
    let summary = try requireValue(report.scenarios.first).problemSummary
    #expect(summary.contains("invalid_signup"), "\(summary)")
    #expect(!secrets.contains("invalid_signup"))
    let traced = trace.withLock { $0.joined(separator: "\n") }
    #expect(traced.contains(#""code":"invalid_signup""#), "\(traced)")
  }
}
