import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

@Suite struct FlowGraphTests {
  /// login → (renew ∥ reuse) → family_revoked, a conditional retrying step, and cleanup.
  static let racing = MarkedText(
    """
    scenario: Two refreshes race on one token
    steps:
      - id: login
        name: Log in
        web_auth: { scope: openid offline_access }
      - id: renew
        needs: [login]
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
      - id: reuse
        needs: [login]
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
      - id: family_revoked
        needs: [renew, reuse]
        if: ${{ steps.renew.refresh_token != null }}
        retry: { attempts: 4, delay: 1s }
        renew: { refresh_token: "${{ steps.renew.refresh_token }}" }
      - wait: 1s
    cleanup:
      - id: end
        logout:
      - http: { url: "https://example.com/\\"quoted\\"" }
    """)

  private func graph(_ input: MarkedText = racing) throws -> FlowGraph {
    let (scenario, diagnostics) = load(input)
    expectClean(diagnostics)
    return FlowGraph(try #require(scenario))
  }

  @Test func edgesComeFromNeedsOrListOrder() throws {
    let graph = try graph()
    #expect(graph.dependencies(of: "login") == [])
    #expect(graph.dependencies(of: "renew") == ["login"])
    #expect(graph.dependencies(of: "family_revoked") == ["renew", "reuse"])
    #expect(graph.dependencies(of: "step-5") == ["family_revoked"])
    #expect(graph.dependencies(of: "end") == [])
    #expect(graph.dependencies(of: "cleanup-2") == ["end"])
    #expect(graph.dependents(of: "login") == ["renew", "reuse"])
  }

  @Test func orderAncestorsAndWaves() throws {
    let graph = try graph()
    #expect(graph.order == ["login", "renew", "reuse", "family_revoked", "step-5", "end", "cleanup-2"])
    #expect(graph.ancestors(of: "family_revoked") == ["login", "renew", "reuse"])
    #expect(graph.ancestors(of: "end") == ["login", "renew", "reuse", "family_revoked", "step-5"])
    #expect(graph.levels == [["login"], ["renew", "reuse"], ["family_revoked"], ["step-5"]])
    #expect(graph.cleanupLevels == [["end"], ["cleanup-2"]])
    #expect(graph.areIndependent("renew", "reuse"))
    #expect(!graph.areIndependent("login", "reuse"))
  }

  @Test func explicitEmptyNeedsStartsABranch() throws {
    let graph = try graph(
      MarkedText(
        """
        scenario: x
        steps:
          - id: a
            logout:
          - id: b
            needs: []
            logout:
        """))
    #expect(graph.levels == [["a", "b"]])
  }

  @Test func cyclesAreFoundAndLeftOutOfWaves() throws {
    let (scenario, _) = load(
      MarkedText(
        """
        scenario: x
        steps:
          - id: a
            logout:
          - id: b
            needs: [d]
            logout:
          - id: c
            logout:
          - id: d
            logout:
        """))
    let graph = FlowGraph(try #require(scenario))
    #expect(graph.cycles == [["b", "d", "c"]])
    #expect(graph.levels == [["a"]])
    #expect(graph.order == ["a", "b", "c", "d"])
  }

  @Test func mermaidSnapshot() throws {
    #expect(Snapshot.verify(try graph().mermaid, named: "racing.mermaid") == nil)
  }

  @Test func dotSnapshot() throws {
    #expect(Snapshot.verify(try graph().dot, named: "racing.dot") == nil)
  }
}
