import ArgumentParser
import AuthFlowCore
import AuthFlowReporting
import AuthFlowRuntime
import AuthFlowScenario
import Foundation

/// `authflow graph PATH… [--format mermaid|dot] [--output DIR]`: draw the flow graph of each
/// scenario — every valid one, even when others are invalid (their diagnostics are printed, and
/// the exit code is 2, as `validate` exits).
struct GraphCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "graph", abstract: "Print each scenario's flow graph as Mermaid or Graphviz dot.",
    discussion: """
      One file prints its graph alone. Several files, or a directory: with Mermaid, a Markdown \
      document with a heading naming each file and its graph in a ```mermaid block (GitHub, GitLab \
      and most Markdown viewers draw every one); with dot, every graph after a // comment naming \
      its file, which Graphviz renders in one go (dot -Tsvg -O). --output DIR writes one file per \
      scenario instead (DIR/<its path>.mmd or .dot). A file that does not validate is reported \
      (file:line:col) and left out; the others are still drawn, and the exit code is 2.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case mermaid, dot

    /// The extension of the files `--output` writes.
    var fileExtension: String { self == .mermaid ? "mmd" : "dot" }
  }

  @Argument(help: "Scenario files or directories.")
  var paths: [String] = []

  @Option(name: .long, help: "mermaid (default) or dot.")
  var format: Format = .mermaid

  @Option(
    name: .long,
    help: "Write one file per scenario into this directory (DIR/<scenario path>.mmd or .dot) instead of printing.")
  var output: String?

  func validate() throws {
    if paths.isEmpty {
      throw ValidationError("give a scenario file or directory, e.g. authflow graph scenarios/login.yaml")
    }
  }

  func run() async throws {
    // source → parsed → validated, each scenario with its flow graph
    let loaded = await ScenarioSource(paths: paths).scenarios()
    DiagnosticOutput.print(loaded.diagnostics, sources: loaded.sources)
    let invalid = loaded.diagnostics.hasErrors
    guard !loaded.validated.isEmpty || invalid else {
      Console.error("error: no scenario files in \(paths.joined(separator: ", ")) (scenarios are .yaml or .yml files)")
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    if let output {
      try write(loaded.validated, into: output)
    } else if !loaded.validated.isEmpty {
      Console.out(Self.render(loaded.validated, format: format))
    }
    if invalid {
      Console.error(GraphMessages.leftOut(drawn: loaded.validated.count))
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
  }

  /// One graph alone; several as a Markdown document of fenced Mermaid blocks, or dot graphs each
  /// after a comment naming its file and title.
  static func render(_ scenarios: [ValidatedScenario], format: Format) -> String {
    guard scenarios.count > 1 else { return scenarios.first.map { draw($0, format: format) } ?? "" }
    switch format {
    case .mermaid:
      return scenarios.map { validated in
        "## \(validated.scenario.file): \(title(of: validated))\n\n```mermaid\n"
          + draw(validated, format: format).trimmingSuffix("\n") + "\n```\n"
      }.joined(separator: "\n")
    case .dot:
      return scenarios.map { validated in
        "// \(validated.scenario.file): \(title(of: validated))\n" + draw(validated, format: format)
      }.joined(separator: "\n")
    }
  }

  static func draw(_ validated: ValidatedScenario, format: Format) -> String {
    format == .mermaid ? validated.graph.mermaid : validated.graph.dot
  }

  private static func title(of validated: ValidatedScenario) -> String {
    validated.scenario.title.value.replacingOccurrences(of: "\n", with: " ")
  }

  /// `--output DIR`: each graph in `DIR/<the scenario file's path, extension replaced>`, printing
  /// the paths written.
  private func write(_ scenarios: [ValidatedScenario], into directory: String) throws {
    let manager = FileManager.default
    for validated in scenarios {
      let target = Self.outputPath(for: validated.scenario.file, in: directory, format: format)
      do {
        try manager.createDirectory(
          atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try AtomicFile.write(Self.draw(validated, format: format), to: target)
      } catch {
        Console.error(
          GraphMessages.cannotWrite(
            target, reason: (error as? ReportFileError)?.description ?? error.localizedDescription))
        throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
      }
      Console.out(target)
    }
  }

  /// `DIR/scenarios/login.mmd` for `scenarios/login.yaml`: the scenario's path as given (an
  /// absolute one under the working directory made relative to it, any other without its
  /// leading `/`, and no `..`), with the format's extension.
  static func outputPath(for file: String, in directory: String, format: Format) -> String {
    var relative = URL(fileURLWithPath: file).standardizedFileURL.path
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
    if relative.hasPrefix(cwd + "/") { relative = String(relative.dropFirst(cwd.count + 1)) }
    let parts = relative.split(separator: "/").filter { $0 != ".." && $0 != "." }
    let stem = (parts.joined(separator: "/") as NSString).deletingPathExtension
    return (directory as NSString).appendingPathComponent(stem + "." + format.fileExtension)
  }
}

/// The graph command's messages.
enum GraphMessages {
  static func leftOut(drawn: Int) -> String {
    let noun = drawn == 1 ? "scenario was" : "scenarios were"
    return "error: the files above do not validate and were left out; \(drawn) \(noun) drawn"
  }

  static func cannotWrite(_ path: String, reason: String) -> String {
    "error: cannot write \(path): \(reason)"
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
