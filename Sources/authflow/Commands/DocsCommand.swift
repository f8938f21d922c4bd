import ArgumentParser
import AuthFlowCore
import AuthFlowReporting
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
      do {
        try AtomicFile.write(page.text, to: url.path)
      } catch {
        Console.error("error: cannot write \(page.path): \(error.description)")
        throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
      }
    }
    Console.out("wrote \(pages.count) pages under \(output)/")
  }
}
