import AuthFlowCore
import Testing

@Suite struct SnippetRedactionTests {
  @Test(arguments: [
    ("      password: hunter2", "      password: *******"),
    (
      "  - login: { username: a@b.c, password: \"p w\", scope: openid }",
      "  - login: { username: a@b.c, password: \"***\", scope: openid }"
    ),
    ("client_secret: abc # the web app", "client_secret: *** # the web app"),
    ("password: ${{ env.PASSWORD }}", "password: ${{ env.PASSWORD }}"),
    ("passwords: visible", "passwords: visible"),
    ("my_password: visible", "my_password: visible"),
    ("code: |", "code: |"),
    ("  username: alice", "  username: alice"),
    ("      error.code: { equals: invalid_grant }", "      error.code: { equals: invalid_grant }"),
    ("  code: [a, b]", "  code: [a, b]"),
  ])
  func masksLiteralSecretValues(line: String, expected: String) {
    #expect(SnippetRedaction.mask(line) == expected)
  }

  @Test func keepsColumnsSoTheCaretStillPoints() {
    let line = "    login: { password: hunter2, scop: openid }"
    #expect(SnippetRedaction.mask(line).count == line.count)
  }

  @Test func rendererMasksUnlessAskedToReveal() {
    let text = "steps:\n  - login: { password: hunter2, scop: openid }\n"
    let diagnostic = Diagnostic.error("unknown key 'scop'", at: SourceLocation(file: "a.yaml", line: 2, column: 32))
    let masked = DiagnosticRenderer(source: { _ in text }).render(diagnostic)
    #expect(!masked.contains("hunter2"))
    #expect(masked.contains("password: *******"))
    let revealed = DiagnosticRenderer(revealSecrets: true, source: { _ in text }).render(diagnostic)
    #expect(revealed.contains("hunter2"))
  }
}
