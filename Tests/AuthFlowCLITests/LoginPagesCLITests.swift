import Foundation
import Testing

/// Login pages the profile describes, end to end on the built binary: `authflow doctor` says how
/// it would sign in (exit 1 when it cannot), and `authflow run` signs in through a JavaScript login
/// app with `--trace` on and the password masked.
@Suite struct LoginPagesCLITests {
  static let password = "Alice-App-Passw0rd!"

  static let files = [
    "fixture.yaml": """
    tenant:
      login_page: { style: app }
    clients:
      native:
        client_id: native-client-id
        type: native
        callbacks: [https://app.example.com/callback]
        grant_types: [authorization_code]
    connections:
      - { name: Username-Password-Authentication, strategy: database }
    users:
      alice: { email: alice@example.com, password: "\(password)" }
    """,
    "authflow.yaml": """
    tenants:
      app: { kind: mock, fixture: fixture.yaml }
      described:
        kind: mock
        fixture: fixture.yaml
        login_pages:
          app:
            page: /login.html
            requests:
              - { method: POST, url: /api/auth/, json: { username: "${{ login.email }}", password: "${{ login.password }}" } }
            continue: { parameters: { continue: "${{ response.body.continue }}" } }
    """,
    "login.yaml": """
    scenario: Alice signs in through the login app
    client: native
    steps:
      - id: login
        web_auth:
          login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        expect: { pages: [login, callback], id_token_valid: true }
    """,
  ]

  @Test func doctorSaysHowItWouldSignIn() async throws {
    try await Workspace.with(Self.files) { directory in
      let without = try await CLIProcess.run(["doctor", "--tenant", "app"], in: directory)
      #expect(without.status == 1, "\(without.standardOutput)\(without.standardError)")
      #expect(without.standardOutput.contains("Login pages\n  ✗ native: no login form authflow can fill at "))
      #expect(without.standardOutput.contains("fix: describe the login in the tenant profile"))
      let described = try await CLIProcess.run(["doctor", "--tenant", "described"], in: directory)
      #expect(described.status == 0, "\(described.standardOutput)\(described.standardError)")
      #expect(described.standardOutput.contains("is a login app with no form; authflow signs in as the profile's"))
    }
  }

  @Test func runSignsInWithTheProfileAndMasksThePassword() async throws {
    try await Workspace.with(Self.files) { directory in
      let signedIn = try await CLIProcess.run(["run", "login.yaml", "--tenant", "described", "--trace"], in: directory)
      #expect(signedIn.status == 0, "\(signedIn.standardOutput)\(signedIn.standardError)")
      #expect(signedIn.standardError.contains("api/auth/"), "the trace shows the JSON login")
      #expect(!signedIn.standardError.contains(Self.password) && !signedIn.standardOutput.contains(Self.password))
      let stuck = try await CLIProcess.run(["run", "login.yaml", "--tenant", "app"], in: directory)
      #expect(stuck.status == 1, "\(stuck.standardOutput)\(stuck.standardError)")
      #expect(stuck.standardOutput.contains("no login form authflow can fill: "), "\(stuck.standardOutput)")
    }
  }
}
