import ArgumentParser
import AuthFlowRuntime
import Foundation

/// `authflow docs`: writes the generated reference pages (actions, functions, capabilities,
/// errors) and the generated sections of hand-written pages (the matcher table).
struct DocsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "docs",
    abstract:
      "Write the reference pages generated from the actions and functions, and the generated sections of the hand-written pages."
  )

  @Option(name: .long, help: "The docs directory, at the repository's root (default: docs).")
  var output: String = "docs"

  func run() async throws {
    let docs = URL(fileURLWithPath: output)
    let pages = await ReferenceDocs.pages(docs: docs)
    for page in pages {
      let url = docs.appendingPathComponent(page.path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try page.text.write(to: url, atomically: true, encoding: .utf8)
    }
    Console.out("wrote \(pages.count) pages under \(output)/")
  }
}
