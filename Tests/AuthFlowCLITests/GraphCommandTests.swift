import Foundation
import Testing

/// `authflow graph` draws every scenario it is given (a directory used to draw only its first file,
/// silently): several as one Markdown document of Mermaid blocks (or dot graphs), or one file each
/// with `--output DIR`; an invalid file is reported and left out, the others still drawn, exit 2.
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
      // Each in its own fenced block under a heading naming its file: one renderable Markdown file.
      #expect(
        mermaid.standardOutput.hasPrefix("## \(directory)/a.yaml: First flow\n\n```mermaid\nflowchart TD\n"),
        "\(mermaid.standardOutput)")
      #expect(
        mermaid.standardOutput.contains(
          "\n```\n\n## \(directory)/b.yaml: Second flow\n\n```mermaid\nflowchart TD"))
      #expect(mermaid.standardOutput.components(separatedBy: "```").count - 1 == 4)
      #expect(mermaid.standardOutput.contains("beta --> gamma"))

      let dot = try await CLIProcess.run(["graph", "a.yaml", "b.yaml", "--format", "dot"], in: directory)
      #expect(dot.status == 0, "\(dot.standardError)")
      #expect(dot.standardOutput.components(separatedBy: "digraph ").count - 1 == 2)
      #expect(dot.standardOutput.contains("// a.yaml: First flow\ndigraph \"First flow\""))
    }
  }

  static let invalid = """
    scenario: Broken flow
    steps:
      - id: delta
        needs: [nowhere]
        set: { x: 1 }
    """

  @Test func anInvalidFileIsReportedAndTheOthersStillDrawn() async throws {
    try await Workspace.with(["a.yaml": Self.first, "b.yaml": Self.second, "c.yaml": Self.invalid]) { directory in
      let outcome = try await CLIProcess.run(["graph", "a.yaml", "b.yaml", "c.yaml"], in: directory)
      #expect(outcome.status == 2, "\(outcome.standardError)")
      #expect(outcome.standardError.contains("c.yaml:4:"), "\(outcome.standardError)")
      #expect(outcome.standardError.contains("nowhere"))
      #expect(outcome.standardError.contains("2 scenarios were drawn"), "\(outcome.standardError)")
      #expect(outcome.standardOutput.components(separatedBy: "```mermaid").count - 1 == 2)
      #expect(!outcome.standardOutput.contains("Broken flow"))
    }
  }

  @Test func outputWritesOneFilePerScenario() async throws {
    try await Workspace.with(["a.yaml": Self.first, "sub/b.yaml": Self.second]) { directory in
      let outcome = try await CLIProcess.run(["graph", ".", "--output", "graphs"], in: directory)
      #expect(outcome.status == 0, "\(outcome.standardError)")
      let a = try String(contentsOfFile: directory + "/graphs/a.mmd", encoding: .utf8)
      let b = try String(contentsOfFile: directory + "/graphs/sub/b.mmd", encoding: .utf8)
      #expect(a.hasPrefix("flowchart TD\n") && a.contains("alpha"))
      #expect(b.hasPrefix("flowchart TD\n") && b.contains("beta --> gamma"))
      #expect(outcome.standardOutput.contains("graphs/a.mmd") && outcome.standardOutput.contains("graphs/sub/b.mmd"))
      let dot = try await CLIProcess.run(["graph", "a.yaml", "--format", "dot", "--output", "d"], in: directory)
      #expect(dot.status == 0, "\(dot.standardError)")
      #expect(try String(contentsOfFile: directory + "/d/a.dot", encoding: .utf8).hasPrefix("digraph"))
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
