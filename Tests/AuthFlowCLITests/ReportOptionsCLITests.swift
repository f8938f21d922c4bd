import Foundation
import Testing

/// `run` and `report merge` share one declaration of `--reporter`, `--show-secrets` and
/// `--fail-on-skip`: their help says the same of each, and both accept them.
@Suite struct ReportOptionsCLITests {
  static let shared = ["--reporter", "--show-secrets", "--fail-on-skip"]

  /// The help text of each shared option, from the option's line to the next option, as words.
  static func helpSections(_ help: String) -> [String: String] {
    var sections: [String: String] = [:]
    var current: String?
    for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      // A heading ("TRANSPORT LIMITS:") or a blank line ends an option's text.
      if trimmed.isEmpty || !line.hasPrefix(" ") { current = nil }
      if trimmed.hasPrefix("-") {
        current = shared.first { trimmed.hasPrefix($0) }
      }
      // Words only: each command aligns its help column to its own longest option.
      let words = trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      if let current { sections[current, default: ""] += words + " " }
    }
    return sections
  }

  @Test func runAndReportMergeDescribeTheSharedOptionsAlike() async throws {
    try await Workspace.with([:]) { directory in
      let run = try await CLIProcess.run(["run", "--help"], in: directory)
      let merge = try await CLIProcess.run(["report", "merge", "--help"], in: directory)
      #expect(run.status == 0 && merge.status == 0)
      let runSections = Self.helpSections(run.standardOutput)
      let mergeSections = Self.helpSections(merge.standardOutput)
      for option in Self.shared {
        let runText = try #require(runSections[option], "run --help does not list \(option)")
        #expect(runText == mergeSections[option], "\(option) differs:\n\(runText)\n---\n\(mergeSections[option] ?? "")")
      }
    }
  }
}
