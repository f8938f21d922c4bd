import AuthFlowCore
import AuthFlowHTTP
import AuthFlowReporting
import AuthFlowRuntime
import AuthFlowScenario
import Synchronization
import Testing

/// Secrets planted in a scenario — a password from the tenant profile, a secret var, tokens the
/// tenant returns, a code in a URL — reach no output: not the console, JUnit, JSON or GitHub
/// reporters, not the `--trace` of every exchange, not failure messages. With `--show-secrets`
/// they do appear, so the test cannot pass by printing nothing.
@Suite("Secrets reach no output, end to end")
struct SecretsEndToEndTests {
  static let plantedVar = "planted-var-secret-7731"
  static let plantedCode = "planted-code-5522"
  static let alicePassword = "Alice-Passw0rd!"

  static let scenario = """
    scenario: Planted secrets
    vars:
      planted: ${{ secret('\(plantedVar)') }}
    steps:
      - id: password_grant
        http:
          url: oauth/token
          method: POST
          json:
            grant_type: http://auth0.com/oauth/grant-type/password-realm
            client_id: ${{ client.client_id }}
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
            realm: Username-Password-Authentication
            scope: openid profile offline_access
        expect:
          status: 200
          body.access_token: ${{ vars.planted }}
      - id: code_in_url
        needs: []
        http:
          url: .well-known/openid-configuration?code=\(plantedCode)
        expect:
          url: nothing-like-this
      - id: echo_var
        needs: []
        assert:
          value: ${{ 'prefix-' + vars.planted }}
        expect:
          value: something-else
    """

  struct Outputs {
    var texts: [String]
    /// The planted secrets and every secret the run received (the step results' secret and JWT
    /// values), each checked to be registered.
    var secrets: [String]
    var registry: SecretRegistry
  }

  /// Every secret text inside a step result.
  static func secretTexts(in value: Value, insideSecret: Bool = false) -> [String] {
    switch value {
    case .secret(let inner): return secretTexts(in: inner, insideSecret: true)
    case .jwt(let token): return [token.raw]
    case .string(let text): return insideSecret ? [text] : []
    case .array(let items): return items.flatMap { secretTexts(in: $0, insideSecret: insideSecret) }
    case .object(let members): return members.values.flatMap { secretTexts(in: $0, insideSecret: insideSecret) }
    default: return []
    }
  }

  func runEverything(reveal: Bool) async throws -> Outputs {
    let secrets = SecretRegistry(revealSecrets: reveal)
    let captured = CapturedOutput()
    let context = ReporterContext(secrets: secrets, output: captured, environment: [:], isTerminal: false)
    let reporters = try ReporterRegistry.builtIn.make(
      arguments: ["console", "junit:out.xml", "json:out.json", "github"], context: context)
    let trace = Mutex<[String]>([])
    let formatter = ExchangeFormatter(revealSecrets: reveal)
    let instances = try ScenarioHarness.parse(Self.scenario).instances
    let report = try await MockHarness.run(instances: instances, secrets: secrets, observer: reporters.observer) {
      base in
      TracingTransport(wrapping: base) { exchange in
        let text = secrets.scrub(formatter.format(exchange))
        trace.withLock { $0.append(text) }
      }
    }
    try await reporters.finish(report)
    var texts = [await captured.console]
    texts += await captured.files.values
    texts += trace.withLock { $0 }
    let received = report.scenarios.flatMap(\.steps).compactMap(\.result).flatMap { Self.secretTexts(in: $0) }
    let planted = [Self.plantedVar, Self.plantedCode, Self.alicePassword]
    return Outputs(texts: texts, secrets: planted + received, registry: secrets)
  }

  @Test("No planted or received secret appears in any reporter or in the trace")
  func nothingLeaks() async throws {
    let outputs = try await runEverything(reveal: false)
    let planted = [Self.plantedVar, Self.plantedCode, Self.alicePassword]
    // The registry saw the planted secrets and the tokens the tenant returned.
    // Booleans first: a failing #expect would otherwise print the secrets it compares.
    for secret in outputs.secrets where secret.count >= 4 {
      let registered = outputs.registry.contains(secret)
      #expect(registered, "not registered: \(secret.prefix(4))…")
    }
    let registeredCount = outputs.registry.count
    #expect(registeredCount > planted.count, "tokens from the tenant should be registered too")
    #expect(outputs.secrets.count > planted.count, "the run received tokens")
    for secret in outputs.secrets where secret.count >= 8 {
      let leaked = outputs.texts.contains { $0.contains(secret) }
      #expect(!leaked, "a secret reached an output: \(secret.prefix(4))…")
    }
    #expect(outputs.texts.joined().contains("***"))
  }

  @Test("With --show-secrets the same run shows them (the test above is not vacuous)")
  func showSecretsReveals() async throws {
    let outputs = try await runEverything(reveal: true)
    let all = outputs.texts.joined(separator: "\n")
    #expect(all.contains(Self.plantedVar))
    #expect(all.contains(Self.plantedCode))
    #expect(all.contains(Self.alicePassword))
  }
}
