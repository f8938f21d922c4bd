import AuthFlowScenario
import Testing

@Suite struct GraphLayoutTests {
  typealias Item = GraphLayout.Item

  static func item(_ id: String, _ dependencies: [String] = [], cleanup: Bool = false) -> Item {
    Item(id: id, dependencies: dependencies, isCleanup: cleanup)
  }

  /// Every edge points down; no two boxes of a layer overlap; every box is inside the drawing.
  static func checkGeometry(_ layout: GraphLayout) {
    for edge in layout.edges {
      guard let from = layout.box(edge.from), let to = layout.box(edge.to) else {
        Issue.record("edge \(edge) has no box")
        continue
      }
      #expect(to.layer > from.layer, "\(edge.from) → \(edge.to)")
    }
    for first in layout.boxes {
      #expect(first.x - GraphLayout.boxWidth / 2 >= 0 && first.x + GraphLayout.boxWidth / 2 <= layout.width)
      #expect(first.y + GraphLayout.boxHeight / 2 <= layout.height)
      for second in layout.boxes where second.id != first.id && second.layer == first.layer {
        #expect(abs(first.x - second.x) >= GraphLayout.boxWidth, "\(first.id) overlaps \(second.id)")
      }
    }
  }

  @Test func diamondWithCleanup() {
    let layout = GraphLayout([
      Self.item("a"), Self.item("b", ["a"]), Self.item("c", ["a"]), Self.item("d", ["b", "c"]),
      Self.item("logout", cleanup: true), Self.item("delete", ["logout"], cleanup: true),
    ])
    #expect(layout.boxes.map(\.layer) == [0, 1, 1, 2, 3, 4])
    #expect(layout.box("b")?.y == layout.box("c")?.y)
    #expect(layout.box("a")?.x == layout.box("d")?.x, "the join sits under the fork")
    #expect(layout.edges.filter(\.always).map { "\($0.from)→\($0.to)" } == ["d→logout"])
    #expect(layout.cleanupLayer == 3)
    #expect(layout.cleanupTop < (layout.box("logout")?.y ?? 0))
    Self.checkGeometry(layout)
  }

  /// The barycenter sweeps uncross edges that list order would cross.
  @Test func uncrossesEdges() {
    let layout = GraphLayout([
      Self.item("left"), Self.item("right"), Self.item("under_right", ["right"]), Self.item("under_left", ["left"]),
    ])
    let underLeft = layout.box("under_left")?.x ?? 0
    let underRight = layout.box("under_right")?.x ?? 0
    #expect(underLeft < underRight)
    Self.checkGeometry(layout)
  }

  @Test func unknownNeedsAndCyclesDoNotTrap() {
    let layout = GraphLayout([
      Self.item("a", ["b"]), Self.item("b", ["a"]), Self.item("c", ["missing"]), Self.item("c", ["a"]),
    ])
    #expect(layout.boxes.map(\.id) == ["a", "b", "c"])
    #expect(layout.boxes.count == 3)
    #expect(Set(layout.boxes.map(\.layer)).count >= 2)
  }

  @Test func flowGraphLayoutMatchesItsNodes() throws {
    let yaml = """
      scenario: Fan out
      steps:
        - id: login
          assert: { that: true }
        - id: userinfo
          assert: { that: true }
        - id: refresh
          needs: [login]
          assert: { that: true }
      cleanup:
        - id: logout
          assert: { that: true }
      """
    let scenario = try #require(ScenarioLoader(catalog: nil).load(text: yaml, file: "fan.yaml").scenario)
    let layout = FlowGraph(scenario).layout
    #expect(layout.boxes.map(\.id) == ["login", "userinfo", "refresh", "logout"])
    #expect(layout.boxes.map(\.layer) == [0, 1, 1, 2])
    #expect(layout.edges.filter(\.always).map(\.from).sorted() == ["refresh", "userinfo"])
    Self.checkGeometry(layout)
  }
}
