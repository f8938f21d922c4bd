import AuthFlowCore
import Testing

@testable import AuthFlowRuntime

/// Environment variables named like secrets (`ALICE_PASSWORD`, `AUTH0_CLIENT_SECRET`, `GITHUB_TOKEN`)
/// are secrets in `env` and are scrubbed from every output; others stay plain.
@Suite struct EnvironmentSecretsTests {
  @Test(arguments: [
    ("ALICE_PASSWORD", true), ("AUTH0_CLIENT_SECRET", true), ("GITHUB_TOKEN", true), ("SIGNING_KEY", true),
    ("db_passwd", true), ("HOME", false), ("KEYCLOAK_URL", false), ("MONKEY", false), ("AUTH0_DOMAIN", false),
  ])
  func secretNames(name: String, isSecret: Bool) {
    #expect(RunServices.isSecretName(name) == isSecret)
  }

  @Test func secretNamedValuesAreSecretAndScrubbed() {
    let secrets = SecretRegistry()
    let value = RunServices.environmentValue(
      ["ALICE_PASSWORD": "pw-from-env-123", "AUTH0_DOMAIN": "tenant.example.com"], secrets: secrets)
    #expect(value.objectValue?["ALICE_PASSWORD"] == .secret(.string("pw-from-env-123")))
    #expect(value.objectValue?["AUTH0_DOMAIN"] == .string("tenant.example.com"))
    #expect(
      secrets.scrub("sent pw-from-env-123 to tenant.example.com") == "sent \(Redaction.mask) to tenant.example.com"
    )
  }
}
