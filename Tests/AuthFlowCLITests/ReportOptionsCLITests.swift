import AuthFlowCore
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

/// A run whose reports all go to files still says what happened on the console, as Playwright's
/// HTML reporter says where its report is: the totals and where each report was written.
@Suite struct FileReporterNoticeCLITests {
  static let failing = """
    scenario: A failing check
    steps:
      - id: one
        assert: { value: 1 }
        expect: { value: 2 }
    """

  @Test func onlyFileReportersStillPrintTheTotalsAndWhereEachReportWent() async throws {
    try await Workspace.with(["x.yaml": Self.failing]) { directory in
      let outcome = try await CLIProcess.run(
        ["run", "x.yaml", "--reporter", "html:r.html", "--reporter", "json:out/r.json"], in: directory)
      #expect(outcome.status == 1)
      let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
      #expect(lines.first?.hasPrefix("1 scenario: 0 passed, 1 failed, 0 errors, 0 skipped in ") == true, "\(lines)")
      #expect(lines.dropFirst() == ["html report: r.html", "json report: out/r.json"], "\(lines)")
      #expect(FileManager.default.fileExists(atPath: directory + "/r.html"))
    }
  }

  @Test func quietSilencesTheNoticeAndTheConsoleReporterReplacesIt() async throws {
    try await Workspace.with(["x.yaml": Self.failing]) { directory in
      let quiet = try await CLIProcess.run(["run", "x.yaml", "--reporter", "html:r.html", "--quiet"], in: directory)
      #expect(quiet.status == 1)
      #expect(quiet.standardOutput.isEmpty, "\(quiet.standardOutput)")
      let console = try await CLIProcess.run(
        ["run", "x.yaml", "--reporter", "console", "--reporter", "html:r.html"], in: directory)
      #expect(!console.standardOutput.contains("html report:"), "\(console.standardOutput)")
      #expect(console.standardOutput.contains("Failures"))
    }
  }

  /// A report written to standard output must stay what it is: the notice goes to standard error.
  @Test func aReportOnStandardOutputKeepsItWhole() async throws {
    try await Workspace.with(["x.yaml": Self.failing]) { directory in
      let outcome = try await CLIProcess.run(["run", "x.yaml", "--reporter", "json:/dev/stdout"], in: directory)
      #expect(outcome.status == 1)
      let report = try Value(jsonText: outcome.standardOutput)
      #expect(report.member("format")?.stringValue == "authflow-report")
      #expect(outcome.standardError.contains("json report: /dev/stdout"), "\(outcome.standardError)")
    }
  }
}
