import ArgumentParser
import AuthFlowRuntime
import Foundation

/// `authflow docs`: writes the generated reference pages (actions, functions).
struct DocsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "docs", abstract: "Write the reference pages generated from the actions and functions.")

  @Option(name: .long, help: "The docs directory (default: docs).")
  var output: String = "docs"

  func run() async throws {
    for page in ReferenceDocs.pages() {
      let url = URL(fileURLWithPath: output).appendingPathComponent(page.path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try page.text.write(to: url, atomically: true, encoding: .utf8)
    }
    Console.out("wrote \(ReferenceDocs.pages().count) pages under \(output)/")
  }
}
