import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowReporting

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct JUnitReporterTests {
  private func render(_ report: RunReport) async throws -> String {
    let output = CapturedOutput()
    let reporter = JUnitReporter(
      spec: ReporterSpec(name: "junit", path: "out/junit.xml"), context: ReportFixtures.context(output))
    try await reporter.finish(report)
    return try #require(await output.files["out/junit.xml"])
  }

  /// Parses with Foundation's XMLParser (libxml2 underneath): nil when well-formed.
  static func parseError(_ xml: String) -> String? {
    let parser = XMLParser(data: Data(xml.utf8))
    return parser.parse()
      ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown error") at line \(parser.lineNumber)"
  }

  @Test func snapshot() async throws {
    let xml = try await render(ReportFixtures.run)
    expectSnapshot(xml, named: "junit")
    #expect(Self.parseError(xml) == nil)
  }

  @Test func aScenarioWithoutStepsSaysItsReason() async throws {
    let xml = try await render(ReportFixtures.changedFile)
    #expect(xml.contains("scenarios/changed.yaml:1:1: the scenario file changed after it was validated"), "\(xml)")
    #expect(!xml.contains("the scenario hit an environment error"))
  }

  @Test func interrupted() async throws {
    let xml = try await render(ReportFixtures.interrupted)
    expectSnapshot(xml, named: "junit-interrupted")
    #expect(Self.parseError(xml) == nil)
    #expect(xml.contains(#"<property name="interrupted" value="true"/>"#))
    // An interrupted scenario is an error (red in CI), never a pass or a skip, whatever its cleanup did.
    #expect(xml.contains(#"type="interrupted">"#))
    #expect(!xml.contains("<skipped"))
    #expect(xml.contains(#"tests="4" failures="1" errors="2" skipped="0""#))
  }

  /// A run stopped by its `--run-timeout` is still well-formed XML: the comment naming the cause
  /// holds no `--` (which an XML comment may not), the property keeps it as written.
  @Test func stoppedByTheRunTimeout() async throws {
    var report = ReportFixtures.interrupted
    report.stopCause = .runTimeout("20m")
    let xml = try await render(report)
    #expect(Self.parseError(xml) == nil)
    #expect(
      xml.contains("<!-- INTERRUPTED: the run was stopped by its run-timeout of 20m before every scenario finished -->")
    )
    #expect(xml.contains(#"<property name="stop_cause" value="--run-timeout 20m passed"/>"#))
  }

  @Test func escapesMarkupQuotesAndControlCharacters() async throws {
    // The escaping itself is MarkupEscapingTests' (AuthFlowCoreTests); here, the report it makes.
    var hostile = ReportFixtures.run
    hostile.tenant = "t\u{0}<x>"
    hostile.scenarios[0].name = "]]><!-- \u{1}\u{8}\u{B}\u{C}\u{1F} é 🎉 \"quoted\" 'single' &amp;"
    hostile.scenarios[0].status = Status.skipped
    hostile.scenarios[0].skipReason = "reason\nwith\tcontrols\u{7F}\u{1B}"
    let xml = try await render(hostile)
    #expect(Self.parseError(xml) == nil)
  }
}
