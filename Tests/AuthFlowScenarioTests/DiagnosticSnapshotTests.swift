import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

@Suite struct DiagnosticSnapshotTests {
  @Test func renderedDiagnosticsOfAFileWithSeveralProblems() {
    let text = """
      scenario: Refresh tokens rotate
      tag: [renew]
      steps:
        - id: login
          web_auht:
            scope: openid offline_access
        - id: renew
          needs: [logn]
          renew: { refresh_token: "${{ steps.reuse.refresh_token }}" }
          expct:
            status: 200
        - id: reuse
          renew: { refresh_tokn: abc }
          retry: { attempts: 3, delay: soon }
          expect:
            error.code: { equals: invalid_grant, not_equal: x }
        - id: login
          wait: 2s
      """
    let (_, diagnostics) = ScenarioLoader(catalog: .test).load(text: text, file: "scenarios/rotate.yaml")
    let renderer = DiagnosticRenderer(source: { _ in text })
    #expect(Snapshot.verify(renderer.render(diagnostics) + "\n", named: "several-problems") == nil)
  }
}
