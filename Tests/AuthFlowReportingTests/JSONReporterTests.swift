import AuthFlowCore
import AuthFlowRuntime
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
      value.lookup(path: ["scenarios", "3", "skip_reason"]) == "the run was interrupted before this scenario started")
    #expect(value.lookup(path: ["run", "counts", "interrupted"]) == 2)
  }

  @Test func timestampsRoundTrip() throws {
    let text = Timestamp.iso8601(ReportFixtures.startedAt)
    #expect(text == "2025-01-02T03:04:05.678Z")
    let parsed = try #require(Timestamp.parse(text))
    #expect(abs(parsed.timeIntervalSince(ReportFixtures.startedAt)) < 0.001)
    #expect(Timestamp.junit(ReportFixtures.startedAt) == "2025-01-02T03:04:05")
  }

  @Test func mergesShards() async throws {
    var first = ReportFixtures.run
    first.scenarios = [ReportFixtures.refresh, ReportFixtures.passwordless]
    var second = ReportFixtures.run
    second.startedAt = ReportFixtures.startedAt.addingTimeInterval(-1)
    second.duration = Duration.milliseconds(2000)
    second.scenarios = [ReportFixtures.loginWorks("sms", milliseconds: 388), ReportFixtures.unreachable]
    second.interrupted = true
    let shards = [try await render(first), try await render(second)].map { Data($0.utf8) }
    let merged = try JSONReport.merge(shards)
    let text = String(decoding: merged, as: UTF8.self)
    expectSnapshot(text, named: "json-merged")
    #expect(try JSONReport.merge(shards.reversed()) == merged)
    let value = try Value(json: merged)
    #expect(value.lookup(path: ["run", "started_at"]) == "2025-01-02T03:04:04.678Z")
    // From the earliest start to the latest end (the first shard's 3.521s, a second later).
    #expect(value.lookup(path: ["run", "duration_ms"]) == 4521)
    #expect(value.lookup(path: ["run", "interrupted"]) == true)
    #expect(value.lookup(path: ["run", "counts", "total"]) == 4)
    let files = value.member("scenarios")?.arrayValue?.compactMap { $0.member("file")?.stringValue }
    #expect(files == files?.sorted())
  }

  @Test func mergeRejectsWhatItCannotMerge() async throws {
    #expect(throws: JSONReportError.nothingToMerge) { try JSONReport.merge([]) }
    let valid = Data(try await render(ReportFixtures.run).utf8)
    #expect(throws: JSONReportError.notAReport(index: 1)) { try JSONReport.merge([valid, Data("[]".utf8)]) }
    #expect(throws: JSONReportError.notAReport(index: 0)) {
      try JSONReport.merge([Data(#"{"format":"authflow-report","version":1,"run":{}}"#.utf8)])
    }
    #expect(throws: JSONReportError.unsupportedVersion(index: 0, found: 2)) {
      try JSONReport.merge([Data(#"{"format":"authflow-report","version":2,"run":{}}"#.utf8)])
    }
    var other = ReportFixtures.run
    other.tenant = "staging"
    let shards = [try await render(ReportFixtures.run), try await render(other)].map { Data($0.utf8) }
    #expect(throws: JSONReportError.tenantMismatch("mock", "staging")) { try JSONReport.merge(shards) }
  }
}
