import AuthFlowCore
import Foundation
import Testing

/// `authflow report merge` on the built binary: three shards of a run merged give the verdicts of
/// the whole run (every scenario's status and every step's), in every reporter and in the exit
/// code; reports that cannot be merged exit 2 with a message naming the file.
@Suite(.serialized) struct ReportMergeTests {
  /// The repository's `scenarios/` directory.
  static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scenarios").path

  static let failing = """
    scenario: Fails, and skips what depends on it
    tags: [merge]
    steps:
      - id: check
        assert: { that: "${{ 1 == 2 }}" }
      - id: after
        set: { x: 1 }
    """

  static let skipped = """
    scenario: A step skipped by its condition
    steps:
      - id: x
        set: { x: 1 }
      - id: never
        if: ${{ false }}
        set: { y: 1 }
    """

  /// The top-level bundled scenarios (the whole directory is CI's job: `.ci/run`), and two of
  /// ours, so that the verdicts include a failure and skipped steps.
  static func paths(in directory: String) throws -> [String] {
    let top = try FileManager.default.contentsOfDirectory(atPath: bundled).filter { $0.hasSuffix(".yaml") }.sorted()
    return top.map { "\(bundled)/\($0)" } + ["\(directory)/failing.yaml", "\(directory)/skipped.yaml"]
  }

  /// `file|name` → `status: step=status, …` for every scenario of a JSON report.
  static func verdicts(_ path: String) throws -> [String: String] {
    let report = try Workspace.json(path)
    var result: [String: String] = [:]
    for scenario in report.member("scenarios")?.arrayValue ?? [] {
      let key = "\(scenario.member("file")?.stringValue ?? "")|\(scenario.member("name")?.stringValue ?? "")"
      let steps = (scenario.member("steps")?.arrayValue ?? []).map { step in
        "\(step.member("phase")?.stringValue ?? "")/\(step.member("id")?.stringValue ?? "")=\(step.member("status")?.stringValue ?? "")"
      }.sorted()
      result[key] = "\(scenario.member("status")?.stringValue ?? ""): " + steps.joined(separator: ", ")
    }
    return result
  }

  @Test("Three shards merged equal the whole run, in JSON, JUnit, HTML and the exit code")
  func threeShardsEqualTheWholeRun() async throws {
    try await Workspace.with(["failing.yaml": Self.failing, "skipped.yaml": Self.skipped]) { directory in
      let paths = try Self.paths(in: directory)
      let whole = try await CLIProcess.run(["run"] + paths + ["--reporter", "json:whole.json"], in: directory)
      #expect(whole.status == 1, "\(whole.standardError)")
      var shards: [String] = []
      for index in 1...3 {
        let shard = try await CLIProcess.run(
          ["run"] + paths + ["--shard", "\(index)/3", "--allow-empty", "--reporter", "json:shard-\(index).json"],
          in: directory)
        #expect([0, 1].contains(shard.status), "\(shard.standardError)")
        shards.append("shard-\(index).json")
      }
      // Given in another order than the shards ran: the result does not depend on it.
      let merge = try await CLIProcess.run(
        ["report", "merge"] + shards.reversed()
          + [
            "--reporter", "json:merged.json", "--reporter", "junit:merged.xml", "--reporter", "html:merged.html",
            "--reporter", "console",
          ], in: directory)
      #expect(merge.status == whole.status, "\(merge.standardError)")
      let expected = try Self.verdicts(directory + "/whole.json")
      #expect(expected.count == paths.count)
      #expect(try Self.verdicts(directory + "/merged.json") == expected)
      // More than one shard ran something: the split is real. (Not every one: which shard an
      // instance falls in hashes its path, so it depends on where the repository is checked out.)
      let ran = try shards.filter { try !Self.verdicts(directory + "/" + $0).isEmpty }
      #expect(ran.count >= 2, "\(ran)")

      #expect(try Workspace.xmlError(directory + "/merged.xml") == nil)
      let junit = try String(contentsOfFile: directory + "/merged.xml", encoding: .utf8)
      #expect(junit.contains(#"tests="\#(paths.count)" failures="1" errors="0" skipped="0""#), "\(junit.prefix(300))")
      let html = try String(contentsOfFile: directory + "/merged.html", encoding: .utf8)
      #expect(html.components(separatedBy: "<section ").count - 1 == paths.count)
      #expect(html.contains(#"<g class="node st-failed" data-step="check" data-status="failed">"#))
      #expect(merge.standardOutput.contains("✗ Fails, and skips what depends on it"))
      #expect(merge.standardOutput.contains("skipped because 'check' failed: after"))
    }
  }

  /// Runs our two scenarios as shards 1/2 and 2/2, writing `s1.json` and `s2.json`.
  static func writeTwoShards(in directory: String) async throws {
    let paths = ["\(directory)/failing.yaml", "\(directory)/skipped.yaml"]
    for index in 1...2 {
      _ = try await CLIProcess.run(
        ["run"] + paths + ["--shard", "\(index)/2", "--allow-empty", "--reporter", "json:s\(index).json"],
        in: directory)
    }
  }

  /// Shards written by the previous authflow (JSON report version 2: no `started`, no
  /// `run.stop_cause`) still merge, with shards of this one, into the same verdicts.
  @Test("A version 2 shard merges with a version 5 one into the same verdicts")
  func aVersion2ShardStillMerges() async throws {
    try await Workspace.with(["failing.yaml": Self.failing, "skipped.yaml": Self.skipped]) { directory in
      try await Self.writeTwoShards(in: directory)
      let one = try String(contentsOfFile: directory + "/s1.json", encoding: .utf8)
      let old = one.replacingOccurrences(of: #""version": 5"#, with: #""version": 2"#)
        .replacingOccurrences(of: #""test_plans": \[\],\s*"#, with: "", options: .regularExpression)
        .replacingOccurrences(
          of: #",\s*"selected": [0-9a-z]+,\s*"selection": ("[0-9a-f]{16}"|null)"#, with: "", options: .regularExpression
        )
        .split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.contains(#""started": "#) && !$0.contains(#""stop_cause": "#) }.joined(separator: "\n")
      #expect(old.contains(#""version": 2"#) && !old.contains(#""started":"#))
      try old.write(toFile: directory + "/old.json", atomically: true, encoding: .utf8)
      let current = try await CLIProcess.run(
        ["report", "merge", "s1.json", "s2.json", "--reporter", "json:new-merged.json"], in: directory)
      let mixed = try await CLIProcess.run(
        ["report", "merge", "old.json", "s2.json", "--reporter", "json:old-merged.json"], in: directory)
      #expect(mixed.status == current.status && mixed.status == 1, "\(mixed.standardError)")
      #expect(try Self.verdicts(directory + "/old-merged.json") == Self.verdicts(directory + "/new-merged.json"))
      #expect(try Workspace.json(directory + "/old-merged.json").lookup(path: ["version"]) == 5)
    }
  }

  /// A shard run again on another set of scenarios (a later commit, other paths) splits them
  /// differently: merged with the first run's other shard, some scenarios would be in neither and
  /// the merge would pass. Every shard records what the whole run selected; the merge refuses.
  @Test("Shards of different scenario sets do not merge: exit 2, naming both")
  func shardsOfDifferentSelectionsDoNotMerge() async throws {
    let passing = "scenario: Waits\nsteps:\n  - wait: 1ms\n"
    try await Workspace.with(["failing.yaml": Self.failing, "skipped.yaml": Self.skipped, "later.yaml": passing]) {
      directory in
      try await Self.writeTwoShards(in: directory)
      let paths = ["\(directory)/failing.yaml", "\(directory)/skipped.yaml", "\(directory)/later.yaml"]
      _ = try await CLIProcess.run(
        ["run"] + paths + ["--shard", "2/2", "--allow-empty", "--reporter", "json:later-2.json"], in: directory)
      let merge = try await CLIProcess.run(["report", "merge", "s1.json", "later-2.json"], in: directory)
      #expect(merge.status == 2, "\(merge.standardError)")
      #expect(
        merge.standardError.contains(
          "error: s1.json and later-2.json are shards of different runs of tenant 'mock': the first split 2 scenario instances"
        ), "\(merge.standardError)")
      #expect(merge.standardError.contains("the second 3 scenario instances"), "\(merge.standardError)")
    }
  }

  @Test("Reports that cannot be merged exit 2, naming the file and what is wrong")
  func badInputsExit2() async throws {
    try await Workspace.with(["failing.yaml": Self.failing, "skipped.yaml": Self.skipped]) { directory in
      try await Self.writeTwoShards(in: directory)
      let one = try String(contentsOfFile: directory + "/s1.json", encoding: .utf8)
      try one.replacingOccurrences(of: #""version": 5"#, with: #""version": 1"#)
        .write(toFile: directory + "/old.json", atomically: true, encoding: .utf8)
      try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
      // A sparse file one byte over the limit: refused before it is read.
      #expect(FileManager.default.createFile(atPath: directory + "/huge.json", contents: nil))
      let handle = try #require(FileHandle(forWritingAtPath: directory + "/huge.json"))
      try handle.truncate(atOffset: UInt64(InputLimits.reportFileBytes + 1))
      try handle.close()

      let cases: [([String], String)] = [
        (["s1.json"], "error: missing shard 2/2 of tenant 'mock' (1 given)"),
        (["s1.json", "s2.json", "s1.json"], "error: s1.json and s1.json are both shard 1/2 of tenant 'mock'"),
        (["failing.yaml"], "error: failing.yaml: not an authflow JSON report"),
        (["old.json", "s2.json"], "error: old.json: report version 1; this authflow reads versions 2, 3, 4 and 5"),
        (["huge.json"], "error: huge.json: \(InputLimits.reportFileBytes + 1) bytes is more than the"),
        (["nowhere.json"], "error: nowhere.json: cannot be read: no such file"),
        (
          ["s1.json", "s2.json", "--reporter", "json:s1.json"],
          "error: reporter 'json:s1.json' would write over 's1.json', which this command reads"
        ),
        (
          ["s1.json", "s2.json", "--reporter", "junit:./sub/../s2.json"],
          "error: reporter 'junit:./sub/../s2.json' would write over 's2.json', which this command reads"
        ),
        ([], "give the JSON reports to merge"),
      ]
      for (arguments, message) in cases {
        let outcome = try await CLIProcess.run(["report", "merge"] + arguments, in: directory)
        #expect(outcome.status == 2, "\(arguments): \(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
      }
      let merged = try await CLIProcess.run(["report", "merge", "s1.json", "s2.json"], in: directory)
      #expect(merged.status == 1, "\(merged.standardError)")
    }
  }
}
