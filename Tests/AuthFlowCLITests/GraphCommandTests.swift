import Foundation
import Testing

/// `authflow graph` draws every scenario it is given (issue 15 item 7: a directory used to draw
/// only its first file, silently).
@Suite struct GraphCommandTests {
  static let first = """
    scenario: First flow
    steps:
      - id: alpha
        set: { x: 1 }
    """

  static let second = """
    scenario: Second flow
    steps:
      - id: beta
        set: { x: 1 }
      - id: gamma
        needs: [beta]
        set: { y: 1 }
    """

  @Test func directoryDrawsEveryScenario() async throws {
    try await Workspace.with(["a.yaml": Self.first, "b.yaml": Self.second]) { directory in
      let mermaid = try await CLIProcess.run(["graph", directory], in: directory)
      #expect(mermaid.status == 0, "\(mermaid.standardError)")
      #expect(mermaid.standardOutput.components(separatedBy: "flowchart TD").count - 1 == 2)
      #expect(mermaid.standardOutput.contains("%% \(directory)/a.yaml: First flow\nflowchart TD"))
      #expect(mermaid.standardOutput.contains("%% \(directory)/b.yaml: Second flow\nflowchart TD"))
      #expect(mermaid.standardOutput.contains("beta --> gamma"))

      let dot = try await CLIProcess.run(["graph", "a.yaml", "b.yaml", "--format", "dot"], in: directory)
      #expect(dot.status == 0, "\(dot.standardError)")
      #expect(dot.standardOutput.components(separatedBy: "digraph ").count - 1 == 2)
      #expect(dot.standardOutput.contains("// a.yaml: First flow\ndigraph \"First flow\""))
    }
  }

  @Test func oneFileDrawsItAlone() async throws {
    try await Workspace.with(["a.yaml": Self.first]) { directory in
      let outcome = try await CLIProcess.run(["graph", "a.yaml"], in: directory)
      #expect(outcome.status == 0, "\(outcome.standardError)")
      #expect(outcome.standardOutput.hasPrefix("flowchart TD\n"))
      let none = try await CLIProcess.run(["graph"], in: directory)
      #expect(none.status == 2)
      #expect(none.standardError.contains("give a scenario file or directory"))
    }
  }
}
