import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowReporting

/// A comparison run (`--tenant a,b`) in JUnit and JSON: every result carries its tenant.
@Suite struct ComparisonReportTests {
  static var combined: RunReport {
    var other = ReportFixtures.run
    other.tenant = "conformance"
    return RunReport.combining([ReportFixtures.run, other])
  }

  @Test func junitHasOneSuitePerFileAndTenant() async throws {
    let output = CapturedOutput()
    let reporter = JUnitReporter(
      spec: ReporterSpec(name: "junit", path: "junit.xml"), context: ReportFixtures.context(output))
    try await reporter.finish(Self.combined)
    let xml = try #require(await output.files["junit.xml"])
    #expect(JUnitReporterTests.parseError(xml) == nil)
    let tenant = ReportFixtures.run.tenant
    #expect(xml.contains(#"<testsuite name="\#(ReportFixtures.renew) [tenant: \#(tenant)]""#), "\(xml)")
    #expect(xml.contains(#"<testsuite name="\#(ReportFixtures.renew) [tenant: conformance]""#))
    #expect(xml.contains(#"<property name="tenant" value="conformance"/>"#))
    #expect(xml.contains(#"<property name="tenant" value="\#(tenant)"/>"#))
    #expect(!xml.contains(#"value="\#(tenant),conformance""#))
    #expect(xml.contains("[tenant: conformance]\" classname="))
  }

  @Test func jsonNamesEachScenariosTenant() async throws {
    let reporter = JSONReporter(
      spec: ReporterSpec(name: "json", path: "r.json"), context: ReportFixtures.context(CapturedOutput()))
    let value = try Value(json: Data(reporter.render(Self.combined).utf8))
    #expect(value.member("run")?.member("tenant")?.stringValue == "\(ReportFixtures.run.tenant),conformance")
    let tenants = value.member("scenarios")?.arrayValue?.compactMap { $0.member("tenant")?.stringValue } ?? []
    let count = ReportFixtures.run.scenarios.count
    #expect(
      tenants == Array(repeating: ReportFixtures.run.tenant, count: count)
        + Array(repeating: "conformance", count: count))
  }
}
