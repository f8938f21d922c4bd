import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowReporting

@Suite struct JSONReporterTests {
  private func render(_ report: RunReport) async throws -> String {
    let output = CapturedOutput()
    let reporter = JSONReporter(
      spec: ReporterSpec(name: "json", path: "out/report.json"), context: ReportFixtures.context(output))
    try await reporter.finish(report)
    return try #require(await output.files["out/report.json"])
  }

  @Test func snapshot() async throws {
    let text = try await render(ReportFixtures.run)
    expectSnapshot(text, named: "json")
    #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    let value = try Value(jsonText: text)
    #expect(value.lookup(path: ["run", "started_at"]) == "2025-01-02T03:04:05.678Z")
    #expect(value.lookup(path: ["run", "duration_ms"]) == 3521)
    #expect(
      value.lookup(path: ["run", "counts"])
        == ["total": 6, "passed": 2, "failed": 2, "error": 1, "interrupted": 0, "skipped": 1, "warnings": 0])
  }

  @Test func interrupted() async throws {
    let text = try await render(ReportFixtures.interrupted)
    let value = try Value(jsonText: text)
    #expect(value.lookup(path: ["run", "interrupted"]) == true)
    #expect(value.lookup(path: ["scenarios", "2", "status"]) == "interrupted")
    #expect(value.lookup(path: ["scenarios", "2", "steps", "0", "status"]) == "interrupted")
    #expect(value.lookup(path: ["scenarios", "2", "steps", "1", "status"]) == "passed")
    #expect(value.lookup(path: ["scenarios", "3", "status"]) == "interrupted")
    #expect(
      value.lookup(path: ["scenarios", "3", "skip_reason"])
        == "the run was interrupted by SIGTERM before this scenario started")
    #expect(value.lookup(path: ["run", "counts", "interrupted"]) == 2)
    #expect(value.lookup(path: ["run", "stop_cause", "kind"]) == "signal")
    #expect(value.lookup(path: ["run", "stop_cause", "signal"]) == "SIGTERM")
    // The scenario never started: its planned steps, none run, with the graph's `needs`.
    #expect(value.lookup(path: ["scenarios", "2", "started"]) == true)
    #expect(value.lookup(path: ["scenarios", "3", "started"]) == false)
    let planned = value.lookup(path: ["scenarios", "3", "steps"])?.arrayValue ?? []
    #expect(planned.compactMap { $0.member("id")?.stringValue } == ["start", "verify", "logout"])
    #expect(planned.allSatisfy { $0.member("status") == "interrupted" && $0.member("attempts") == 0 })
    #expect(planned[1].member("needs") == ["start"])
  }

  @Test func timestampsRoundTrip() throws {
    let text = Timestamp.iso8601(ReportFixtures.startedAt)
    #expect(text == "2025-01-02T03:04:05.678Z")
    let parsed = try #require(Timestamp.parse(text))
    #expect(abs(parsed.timeIntervalSince(ReportFixtures.startedAt)) < 0.001)
    #expect(Timestamp.junit(ReportFixtures.startedAt) == "2025-01-02T03:04:05")
  }

  private func input(_ report: RunReport, _ name: String, reveal: Bool = false) async throws -> JSONReport.Input {
    let output = CapturedOutput()
    let reporter = JSONReporter(
      spec: ReporterSpec(name: "json", path: name),
      context: ReporterContext(secrets: SecretRegistry(revealSecrets: reveal), output: output))
    try await reporter.finish(report)
    return JSONReport.Input(name: name, data: Data(try #require(await output.files[name]).utf8))
  }

  private func shard(_ scenarios: ScenarioReports, _ index: Int, of count: Int) -> RunReport {
    var report = ReportFixtures.run
    report.scenarios = scenarios
    report.shard = Shard(index: index, count: count)
    return report
  }

  /// The JSON report holds everything the reporters show: read back and written again, it is the
  /// same text.
  @Test func decodingRoundTrips() async throws {
    for report in [ReportFixtures.run, ReportFixtures.interrupted, shard(ReportFixtures.run.scenarios, 2, of: 3)] {
      let text = try await render(report)
      let decoded = try JSONReport.decode(Data(text.utf8), name: "run.json")
      #expect(try await render(decoded.report) == text)
    }
  }

  @Test func mergesShards() async throws {
    var first = shard([ReportFixtures.refresh, ReportFixtures.passwordless], 1, of: 2)
    first.duration = .milliseconds(3521)
    var second = shard([ReportFixtures.loginWorks("sms", milliseconds: 388), ReportFixtures.unreachable], 2, of: 2)
    second.startedAt = ReportFixtures.startedAt.addingTimeInterval(-1)
    second.duration = Duration.milliseconds(2000)
    second.interrupted = true
    let shards = [try await input(first, "shard-1.json"), try await input(second, "shard-2.json")]
    let merged = try JSONReport.merge(shards)
    #expect(merged.shard == nil)
    let text = try await render(merged)
    expectSnapshot(text, named: "json-merged")
    #expect(try await render(JSONReport.merge(shards.reversed())) == text)
    let value = try Value(json: Data(text.utf8))
    #expect(value.lookup(path: ["run", "started_at"]) == "2025-01-02T03:04:04.678Z")
    // From the earliest start to the latest end (the first shard's 3.521s, a second later).
    #expect(value.lookup(path: ["run", "duration_ms"]) == 4521)
    #expect(value.lookup(path: ["run", "interrupted"]) == true)
    #expect(value.lookup(path: ["run", "counts", "total"]) == 4)
    let files = value.member("scenarios")?.arrayValue?.compactMap { $0.member("file")?.stringValue }
    #expect(files == files?.sorted())
  }

  /// A version 2 report (before `run.stop_cause`, `started` and the planned steps of scenarios
  /// that never started) is still read, and merges with a version 3 one: its scenarios started
  /// when they list steps, its stop cause unknown.
  @Test func readsVersion2() async throws {
    var old = shard([ReportFixtures.refresh, ReportFixtures.passwordless], 1, of: 2)
    old.scenarios[1].steps = []
    old.interrupted = true
    let current = shard([ReportFixtures.unreachable], 2, of: 2)
    let version4 = try await render(old)
    let version2 = Self.downgradedToVersion2(version4)
    #expect(
      version2.contains(#""version": 2"#) && !version2.contains(#""started":"#) && !version2.contains("stop_cause"))
    let decoded = try JSONReport.decode(Data(version2.utf8), name: "v2.json")
    #expect(decoded.report.scenarios.map(\.started) == [true, false])
    #expect(decoded.report.stopCause == nil && decoded.report.interrupted)
    let merged = try JSONReport.merge([
      JSONReport.Input(name: "v2.json", data: Data(version2.utf8)), try await input(current, "v3.json"),
    ])
    #expect(merged.scenarios.map(\.status) == [.skipped, .failed, .error])
    let rendered = try Value(json: Data(try await render(merged).utf8))
    #expect(rendered.lookup(path: ["version"]) == 5)
    #expect(rendered.lookup(path: ["run", "stop_cause"]) == .null)
  }

  /// What a version 2 authflow wrote for the same report: no `started`, no `run.stop_cause`, no
  /// shard `selected` and `selection`.
  static func downgradedToVersion2(_ text: String) -> String {
    downgradedToVersion3(text).replacingOccurrences(of: #""version": 3"#, with: #""version": 2"#)
      .split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.contains(#""started": "#) && !$0.contains(#""stop_cause": null"#) }
      .joined(separator: "\n")
  }

  /// What a version 3 authflow wrote for the same report: no shard `selected` and `selection`.
  static func downgradedToVersion3(_ text: String) -> String {
    downgradedToVersion4(text).replacingOccurrences(of: #""version": 4"#, with: #""version": 3"#)
      .replacingOccurrences(
        of: #",\s*"selected": [0-9a-z]+,\s*"selection": ("[0-9a-f]{16}"|null)"#, with: "", options: .regularExpression)
  }

  /// What a version 4 authflow wrote for a report of no test plan: no `test_plans`.
  static func downgradedToVersion4(_ text: String) -> String {
    text.replacingOccurrences(of: #""version": 5"#, with: #""version": 4"#)
      .replacingOccurrences(of: #""test_plans": \[\],\s*"#, with: "", options: .regularExpression)
  }

  /// The stop cause is written and read back; a merge keeps that of the first stopped shard.
  @Test func stopCauseRoundTripsAndMerges() async throws {
    var first = shard([ReportFixtures.refresh], 1, of: 2)
    first.interrupted = true
    first.stopCause = .runTimeout("20m")
    var second = shard([ReportFixtures.unreachable], 2, of: 2)
    second.interrupted = true
    second.stopCause = .signal("SIGTERM")
    let text = try await render(first)
    let value = try Value(json: Data(text.utf8))
    #expect(
      value.lookup(path: ["run", "stop_cause"])
        == .object([
          "kind": "run_timeout", "signal": .null, "run_timeout": "20m", "description": "--run-timeout 20m passed",
        ]))
    #expect(try JSONReport.decode(Data(text.utf8), name: "a.json").report.stopCause == .runTimeout("20m"))
    let merged = try JSONReport.merge([try await input(second, "b.json"), try await input(first, "a.json")])
    #expect(merged.stopCause == .runTimeout("20m"))
  }

  @Test func mergesTenants() async throws {
    var staging = ReportFixtures.run
    staging.tenant = "staging"
    staging.scenarios = [ReportFixtures.refresh]
    var mock = ReportFixtures.run
    mock.scenarios = [ReportFixtures.refresh, ReportFixtures.passwordless]
    let merged = try JSONReport.merge([try await input(mock, "mock.json"), try await input(staging, "staging.json")])
    #expect(merged.tenant == "mock,staging")
    #expect(merged.scenarios.map(\.tenant) == ["mock", "mock", "staging"])
    #expect(merged.scenarios.map(\.status) == [.skipped, .failed, .failed])
  }

  @Test func mergeRejectsWhatItCannotMerge() async throws {
    func message(_ inputs: [JSONReport.Input], showSecrets: Bool = false) -> String {
      do {
        _ = try JSONReport.merge(inputs, showSecrets: showSecrets)
        return "merged"
      } catch {
        return error.description
      }
    }
    func raw(_ text: String, _ name: String = "raw.json") -> JSONReport.Input {
      JSONReport.Input(name: name, data: Data(text.utf8))
    }
    #expect(message([]) == "no JSON reports to merge")
    let whole = try await input(ReportFixtures.run, "whole.json")
    #expect(message([whole, raw("[]", "list.json")]).hasPrefix("list.json: not an authflow JSON report"))
    #expect(
      message([raw(#"{"format":"authflow-report","version":1,"run":{}}"#, "old.json")])
        == "old.json: report version 1; this authflow reads versions 2, 3, 4 and 5 (run every shard with the same authflow)"
    )
    let valid = try await render(ReportFixtures.run)
    let missingKey = valid.replacingOccurrences(of: #""attempts": 3,"#, with: "")
    #expect(missingKey != valid)
    #expect(
      message([raw(missingKey, "cut.json")])
        == "cut.json: scenarios[3].steps[1].attempts: expected a value (the key is missing)")
    let badStatus = valid.replacingOccurrences(of: #""status": "skipped""#, with: #""status": "maybe""#)
    #expect(badStatus != valid)
    #expect(message([raw(badStatus, "odd.json")]).hasPrefix("odd.json: scenarios["))
    #expect(
      message([raw(badStatus, "odd.json")]).hasSuffix(
        "].status: expected a status (passed, failed, error, interrupted, skipped)"))

    let one = try await input(shard([ReportFixtures.refresh], 1, of: 3), "a.json")
    let oneAgain = try await input(shard([ReportFixtures.passwordless], 1, of: 3), "b.json")
    let three = try await input(shard([ReportFixtures.unreachable], 3, of: 3), "c.json")
    #expect(
      message([one, oneAgain, three])
        == "a.json and b.json are both shard 1/3 of tenant 'mock': give each shard's report once")
    #expect(
      message([one, three])
        == "missing shard 2/3 of tenant 'mock' (2 given): merge every shard, or the verdict would not be the whole run's"
    )
    #expect(message([one, whole]).hasPrefix("a.json and whole.json split tenant 'mock' differently"))

    // Shards of different selections (another commit, other paths or tags) would merge into a run
    // that misses scenarios; shards of one selection must hold every instance it selected.
    func selecting(_ report: RunReport, instances: Int, digest: UInt64) -> RunReport {
      var report = report
      report.shard?.selection = Shard.Selection(instances: instances, digest: digest)
      return report
    }
    let firstOfTwo = shard([ReportFixtures.refresh], 1, of: 2)
    let secondOfTwo = shard([ReportFixtures.passwordless], 2, of: 2)
    let ofTwo = try await input(selecting(firstOfTwo, instances: 2, digest: 0xabc), "one-of-two.json")
    let ofThree = try await input(selecting(secondOfTwo, instances: 3, digest: 0xdef), "two-of-three.json")
    #expect(
      message([ofTwo, ofThree])
        == "one-of-two.json and two-of-three.json are shards of different runs of tenant 'mock': the first split 2 scenario instances (selection 0000000000000abc), the second 3 scenario instances (selection 0000000000000def); run every shard on the same commit with the same paths, --tag and --skip-tag"
    )
    let sameButShort = try await input(selecting(secondOfTwo, instances: 3, digest: 0xabc), "short.json")
    let firstOfThree = try await input(selecting(firstOfTwo, instances: 3, digest: 0xabc), "first.json")
    #expect(
      message([firstOfThree, sameButShort]).hasPrefix("the shards of tenant 'mock' selected 3 scenario instances"))
    let complete = try await input(selecting(secondOfTwo, instances: 2, digest: 0xabc), "complete.json")
    #expect(message([ofTwo, complete]) == "merged")
    // A hostile selection is refused as malformed, never trusted into arithmetic.
    let shardText = String(decoding: ofTwo.data, as: UTF8.self)
    for (from, to) in [
      (#""selected": 2,"#, #""selected": 9223372036854775807,"#), (#""selected": 2,"#, #""selected": -1,"#),
      (#""selection": "0000000000000abc""#, #""selection": "+abc""#),
      (#""selection": "0000000000000abc""#, #""selection": null"#),
    ] {
      let hostile = shardText.replacingOccurrences(of: from, with: to)
      #expect(hostile != shardText, "\(from)")
      #expect(message([raw(hostile, "hostile.json"), complete]).hasPrefix("hostile.json: run.shard"), "\(to)")
    }
    // A version 3 shard says nothing of its selection: it merges as before.
    let version3 = try await input(firstOfTwo, "v3.json")
    #expect(message([version3, ofThree]) == "merged")
    let again = try await input(ReportFixtures.run, "again.json")
    #expect(message([whole, again]).hasPrefix("scenario 'Login works [connection: email]' on tenant 'mock'"))
    #expect(
      message([whole, again]).hasSuffix(
        "is in both whole.json and again.json: the reports overlap (merge reports of disjoint runs)"))

    let revealed = try await input(ReportFixtures.run, "clear.json", reveal: true)
    #expect(message([revealed]).hasPrefix("clear.json: written with --show-secrets"))
    #expect(message([revealed], showSecrets: true) == "merged")
  }
}
