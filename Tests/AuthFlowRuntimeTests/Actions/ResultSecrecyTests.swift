import AuthFlowCore
import AuthFlowHTTP
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Synchronization
import Testing

/// Secrecy is part of each result field's declaration (`ResultField.secret`): the docs print it,
/// and the runtime masks every declared secret field of a step's result, so what the tenant calls
/// it does not matter. The global list of secret names (`SecretFieldNames`) stays as a safety net
/// for the members of open results; a field it would mask anyway must say so in its declaration.
@Suite("Declared secret result fields")
struct ResultSecrecyTests {
  /// The actions whose result declares a secret field.
  static let actionsWithSecrets = ActionRegistry.all.filter { action in
    action.signature.results?.fields.contains(where: \.isSecret) == true
  }.map { $0.signature.name }

  @Test("Every action declares its result", arguments: ActionSelfDescriptionTests.actionNames)
  func everyActionDeclaresItsResult(_ name: String) throws {
    let action = try #require(ActionRegistry.action(named: name))
    let schema = try #require(action.signature.results, "\(name) declares no result")
    #expect(Set(schema.fields.map(\.name)).count == schema.fields.count, "\(name) declares a field twice")
    if let others = schema.otherMembers { #expect(!others.isEmpty, "\(name)'s open result says nothing of the rest") }
  }

  @Test("A field the safety net masks by name is declared secret", arguments: ActionSelfDescriptionTests.actionNames)
  func safetyNetNamesAreDeclared(_ name: String) throws {
    let action = try #require(ActionRegistry.action(named: name))
    for field in action.signature.results?.fields ?? [] where SecretFieldNames.all.contains(field.name) {
      #expect(field.isSecret, "\(name).\(field.name) is masked by name but not declared secret")
    }
  }

  @Test("The runtime masks a declared secret field whatever its name")
  func maskingReadsTheDeclaration() {
    let schema = ResultSchema.closed([ResultField.secret("seed", "a seed"), ResultField("label", "a label")])
    let masked = schema.maskingSecretFields(in: ["seed": "JBSWY3DPEHPK3PXP", "label": "totp"])
    #expect(masked.member("seed") == .secret("JBSWY3DPEHPK3PXP"))
    #expect(masked.member("label") == "totp")
  }

  /// Every output a run writes: the console, JUnit, JSON and GitHub reporters and the trace (as
  /// `authflow run --trace` writes it).
  static func outputs(of scenario: String, reveal: Bool) async throws -> (texts: [String], report: RunReport) {
    let secrets = SecretRegistry(revealSecrets: reveal)
    let captured = CapturedOutput()
    let context = ReporterContext(secrets: secrets, output: captured, environment: [:], isTerminal: false)
    let reporters = try ReporterRegistry.builtIn.make(
      arguments: ["console", "junit:out.xml", "json:out.json", "github"], context: context)
    let trace = Mutex<[String]>([])
    let instances = try ScenarioHarness.parse(scenario).instances
    let report = try await MockHarness.run(instances: instances, secrets: secrets, observer: reporters.observer) {
      base in
      TracingTransport.scrubbed(wrapping: base, secrets: secrets) { text in trace.withLock { $0.append(text) } }
    }
    try await reporters.finish(report)
    var texts = [await captured.console]
    texts += await captured.files.values
    texts += trace.withLock { $0 }
    return (texts, report)
  }

  /// The revealed text of every declared secret field in the steps of `report`, checked to be
  /// held as a secret (or a JWT value) in the step's result.
  static func declaredSecrets(in report: RunReport) -> [(field: String, text: String, masked: Bool)] {
    var found: [(String, String, Bool)] = []
    for step in report.scenarios.flatMap(\.steps) {
      guard let schema = ActionRegistry.action(named: step.action)?.signature.results, let result = step.result
      else { continue }
      for field in schema.fields where field.isSecret {
        guard let member = result.member(field.name), !member.isNull, let text = member.revealed.stringValue
        else { continue }
        found.append(("\(step.action).\(field.name)", text, member.isSecret))
      }
    }
    return found
  }

  @Test("A declared secret field of an example's result is masked in every output", arguments: actionsWithSecrets)
  func maskedInEveryOutput(_ name: String) async throws {
    let action = try #require(ActionRegistry.action(named: name))
    let hidden = try await Self.outputs(of: action.example, reveal: false)
    let secrets = Self.declaredSecrets(in: hidden.report)
    for secret in secrets {
      // Booleans first: a failing #expect would otherwise print the secret it compares.
      let masked = secret.masked
      #expect(masked, "\(secret.field) is not held as a secret")
      let leaked = secret.text.count >= 6 && hidden.texts.contains { $0.contains(secret.text) }
      #expect(!leaked, "\(secret.field) reached an output: \(secret.text.prefix(3))…")
    }
  }

  @Test("The declared secrets the examples produce reach the outputs with --show-secrets (the test is not vacuous)")
  func revealedWithShowSecrets() async throws {
    let action = try #require(ActionRegistry.action(named: "my_account"))
    let shown = try await Self.outputs(of: action.example, reveal: true)
    let secrets = Self.declaredSecrets(in: shown.report).filter { $0.field.hasSuffix("manual_input_code") }
    #expect(!secrets.isEmpty, "the my_account example enrolls an authenticator app")
    for secret in secrets {
      #expect(shown.texts.contains { $0.contains(secret.text) }, "\(secret.field) is in no output")
    }
  }
}
