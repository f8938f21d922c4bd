import Foundation
import Testing

/// A step-result typo is caught before anything runs: `authflow validate` reads the result fields
/// each action declares and exits 2 with `file:line:col` and "did you mean".
@Suite struct ResultPathTypoCLITests {
  static let typo = """
    scenario: A typo in a step result
    client: native
    steps:
      - id: login
        login:
          username: alice@example.com
          password: secret
      - id: check
        assert:
          that: ${{ steps.login.id_tokn != null }}
    """

  static let correct = typo.replacingOccurrences(of: "id_tokn", with: "id_token")

  @Test func aResultPathTypoIsExitTwoWithLocationAndSuggestion() async throws {
    try await Workspace.with(["typo.yaml": Self.typo]) { directory in
      let outcome = try await CLIProcess.run(["validate", "typo.yaml"], in: directory)
      #expect(outcome.status == 2, "\(outcome.standardError)")
      let output = outcome.standardOutput + outcome.standardError
      #expect(output.contains("typo.yaml:10:"), "\(output)")
      #expect(output.contains("id_tokn"), "\(output)")
      #expect(output.contains("did you mean 'id_token'"), "\(output)")
    }
  }

  @Test func theCorrectPathValidates() async throws {
    try await Workspace.with(["ok.yaml": Self.correct]) { directory in
      let outcome = try await CLIProcess.run(["validate", "ok.yaml"], in: directory)
      #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
    }
  }
}
