import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowReporting

/// Fails if any secret reaches any reporter of the registry, in any form.
@Suite struct RedactionTests {
  /// A password full of characters every format escapes differently.
  static let password = #"hunter2:pa,ss%w0rd<&>"x'y|*z*"#
  /// A plain alphanumeric secret: appears as is in every format when revealed.
  static let plain = "PLAINSECRET123"
  static let refreshToken = "v1.Mrt_8f3k2j9dQ"
  static let clientSecret = "cs-Zx9\nline-two"
  static let jwt = ReportFixtures.jwt(subject: "auth0|alice")
  static var jwtRaw: String { jwt.stringValue ?? "" }
  static var all: [String] { [password, plain, refreshToken, clientSecret, jwtRaw] }

  static func registry(reveal: Bool) -> SecretRegistry {
    let registry = SecretRegistry(revealSecrets: reveal)
    for secret in [password, plain, refreshToken, clientSecret] {
      registry.register(secretsIn: .secret(.string(secret)))
    }
    registry.register(secretsIn: jwt)
    return registry
  }

  /// A report with a secret everywhere one could leak.
  static var leakyReport: RunReport {
    let file = "scenarios/\(plain)/leak.yaml"
    let at = AuthFlowCore.SourceLocation(file: file, line: 4, column: 9)
    let failing = StepReport(
      id: "login_\(plain)", name: "Log in with \(password)", action: "login", phase: .main, location: at,
      status: .failed, skipReason: "skip \(refreshToken)", duration: .milliseconds(12), attempts: 2,
      problems: [
        Problem(
          .expectation, "expected refresh_token to equal \(refreshToken), found \(clientSecret)", at: at,
          path: "body.\(plain)", matcher: "equals \(password)", expected: refreshToken, actual: clientSecret),
        Problem(.unexpectedError, "the action failed: invalid password \(password)", at: nil),
      ],
      result: [
        "access_token": jwt, "refresh_token": .secret(.string(refreshToken)),
        "password": .secret(.string(password)), "echoed_body": .string("client_secret=\(clientSecret)&x=1"),
        "nested": ["list": [.string("token \(refreshToken)"), .secret(["deep": .string(plain)])]],
        .init(stringLiteral: plain): "a secret as a key",
      ],
      needs: ["before_\(plain)"],
      exchanges: ["→ POST https://tenant/oauth/token\n\n  refresh_token=\(refreshToken)&password=\(password)"])
    let errored = StepReport(
      id: "userinfo", name: "userinfo", action: "userinfo", phase: .cleanup, location: at, status: .error,
      problems: [Problem(.environment, "HTTP 500 for Bearer \(jwtRaw)", at: at, actual: jwtRaw)])
    return RunReport(
      tenant: "tenant-\(plain)", startedAt: ReportFixtures.startedAt, duration: .milliseconds(99),
      scenarios: [
        ScenarioReport(
          name: "Login as \(password) [\(plain)]", file: file, location: at, tags: ["tag-\(plain)"], status: .failed,
          duration: .milliseconds(12), steps: [failing]),
        ScenarioReport(
          name: "Userinfo with \(refreshToken)", file: file, location: at, tags: [], status: .error,
          duration: .milliseconds(1), steps: [errored]),
        ScenarioReport(
          name: "Skipped \(clientSecret)", file: file, location: at, tags: [], status: .skipped,
          skipReason: "tenant lacks \(password)", duration: .zero, steps: []),
      ], interrupted: true)
  }

  /// Every form a secret can take in an output: as is, and escaped for each format.
  static func forms(of secret: String) -> Set<String> {
    var json = ""
    Value.writeJSONString(secret, into: &json)
    return [
      secret, String(json.dropFirst().dropLast()), MarkupEscaping.xml(secret),
      MarkupEscaping.xml(secret, attribute: true), GitHubEscaping.data(secret), GitHubEscaping.property(secret),
      MarkupEscaping.html(secret),
      secret.markdownEscaped, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
    ]
  }

  /// Runs every reporter of the registry on the leaky report (live events, then finish) and
  /// returns each one's output.
  static func outputs(reveal: Bool) async throws -> [String: String] {
    var outputs: [String: String] = [:]
    let report = leakyReport
    for reporter in ReporterRegistry.builtIn.reporters {
      let description = reporter.description
      let output = CapturedOutput()
      let context = ReportFixtures.context(
        output, secrets: registry(reveal: reveal), environment: ["GITHUB_STEP_SUMMARY": "summary.md"],
        isTerminal: true)
      let instance = reporter.init(spec: try ReporterSpec.parse(description.example), context: context)
      await instance.runStarted(RunStart(tenant: report.tenant, scenarioCount: 3, startedAt: report.startedAt))
      for scenario in report.scenarios {
        await instance.observer?.scenarioStarted(name: scenario.name, file: scenario.file)
        for step in scenario.steps { await instance.observer?.stepFinished(step, scenario: scenario.name) }
        await instance.observer?.scenarioFinished(scenario)
      }
      try await instance.finish(report)
      outputs[description.name] = await output.everything
    }
    return outputs
  }

  @Test func noSecretReachesAnyReporter() async throws {
    let outputs = try await Self.outputs(reveal: false)
    #expect(outputs.keys.sorted() == ReporterRegistry.builtIn.names)
    for (name, text) in outputs {
      #expect(text.contains(Redaction.mask), "\(name) shows no mask at all")
      for secret in Self.all {
        for form in Self.forms(of: secret) where form.count >= 4 {
          #expect(!text.contains(form), "reporter '\(name)' leaks \(form.debugDescription)")
        }
      }
    }
  }

  /// The inverse: with --show-secrets they do appear, so the test above can't pass vacuously.
  @Test func showSecretsRevealsThem() async throws {
    let outputs = try await Self.outputs(reveal: true)
    for (name, text) in outputs {
      #expect(text.contains(Self.plain), "reporter '\(name)' should show the scenario's secret")
    }
    let json = try #require(outputs["json"])
    for secret in Self.all {
      #expect(Self.forms(of: secret).contains { json.contains($0) }, "json should show \(secret.debugDescription)")
    }
    let html = try #require(outputs["html"])
    for secret in [Self.plain, Self.refreshToken] {
      #expect(html.contains(MarkupEscaping.html(secret)), "html should show \(secret.debugDescription)")
    }
    let junit = try #require(outputs["junit"])
    #expect(junit.contains(MarkupEscaping.xml(Self.password, attribute: true)))
  }
}
