import Foundation
import Testing

@testable import AuthFlowReporting

@Suite struct FileSystemOutputTests {
  @Test func writesIntoNewDirectoriesAndAppends() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = FileSystemOutput()
    let report = directory.appendingPathComponent("reports/nested/junit.xml").path
    try await output.write("first", toFile: report)
    try await output.write("second", toFile: report)
    #expect(try String(contentsOfFile: report, encoding: .utf8) == "second")
    let summary = directory.appendingPathComponent("summary.md").path
    try await output.append("a\n", toFile: summary)
    try await output.append("b\n", toFile: summary)
    #expect(try String(contentsOfFile: summary, encoding: .utf8) == "a\nb\n")
  }
}
