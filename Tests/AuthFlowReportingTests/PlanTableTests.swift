import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowReporting

/// A conformance plan's table: a row per module of the plan's scenarios (`plan:NAME`), its result
/// as the OpenID conformance suite names it, and the condition and clause that decided it.
@Suite struct PlanTableTests {
  @Test func aRowPerModuleWithTheSuitesResults() throws {
    let tables = PlanTable.tables(of: ReportFixtures.plan)
    try #require(tables.count == 1)
    let table = tables[0]
    #expect(table.plan == "oidcc-basic-certification-test-plan")
    // The scenario with no plan tag is in no table.
    #expect(
      table.rows.map(\.module) == [
        "oidcc-server", "oidcc-codereuse", "oidcc-scope-email", "oidcc-display-page", "oidcc-refresh-token",
      ])
    #expect(table.rows.map(\.result) == [.passed, .failed, .warning, .review, .skipped])
    #expect(table.rows.allSatisfy { $0.tenant == "conformance" })
    #expect(table.counts == [.passed: 1, .failed: 1, .warning: 1, .review: 1, .skipped: 1])
  }

  @Test func theConditionComesFromTheMessageOrTheStepName() throws {
    let table = try #require(PlanTable.tables(of: ReportFixtures.plan).first)
    let failed = table.rows[1]
    // The message has no "(Condition, clause)": the step's name is read instead.
    #expect(failed.condition == nil && failed.detail == "expected value to equal 400, found 403")
    let warning = table.rows[2]
    #expect(warning.condition == "ExtractExpiresInFromTokenEndpointResponse")
    #expect(warning.clause == "RFC 6749 §5.1")
    #expect(table.rows[3].detail == "for review: the login page shown")
    #expect(table.rows[4].detail == "No refresh token was issued.")

    var named = ReportFixtures.module(
      "oidcc-codereuse", status: .failed,
      stepName: "CheckTokenEndpointHttpStatus400, OpenID Connect Core §3.1.3.4: the reuse is refused",
      problems: [
        Problem(.expectation, "expected value to equal 400, found 403", at: ReportFixtures.location("c", 1, 1))
      ]
    )
    var row = PlanTable.row(of: named, tenant: nil)
    #expect(row.condition == "CheckTokenEndpointHttpStatus400" && row.clause == "OpenID Connect Core §3.1.3.4")
    // An ID token refused in Auth0.swift's words names the suite's ID-token checks, not the step.
    var refused = named
    refused.steps[0].problems = [
      Problem(
        .action, "Issuer (iss) claim mismatch in the ID token", at: ReportFixtures.location("c", 1, 1),
        path: PlanTable.idTokenPath)
    ]
    row = PlanTable.row(of: refused, tenant: nil)
    #expect(row.condition == "PerformStandardIdTokenChecks" && row.clause == "OpenID Connect Core §3.1.3.7")
    // A step name that is not "Condition, clause: …" names nothing.
    named.steps[0].name = "reuse: the code again"
    row = PlanTable.row(of: named, tenant: nil)
    #expect(row.condition == nil && row.clause == nil)
  }

  @Test func aMatrixInstanceIsTheModulesVariant() async throws {
    var implicit = ReportFixtures.module("oidcc-server", status: .passed)
    implicit.name = "oidcc-server: the implicit flow [response_type: id_token token]"
    let row = PlanTable.row(of: implicit, tenant: nil)
    #expect(row.module == "oidcc-server" && row.variant == "response_type: id_token token")
    // A comparison run's tenant label is not part of the variant.
    var labelled = implicit
    labelled.name += " [tenant: mock]"
    labelled.tenant = "mock"
    #expect(PlanTable.row(of: labelled, tenant: nil).variant == "response_type: id_token token")
    labelled.name = "oidcc-server: a module [tenant: mock]"
    #expect(PlanTable.row(of: labelled, tenant: nil).variant == nil)
    // Brackets in a title without a matrix value, or a scenario without a matrix, are no variant.
    #expect(PlanTable.variant(of: "oidcc-server: the [draft] flow") == nil)
    #expect(PlanTable.variant(of: "oidcc-server: a module") == nil)
    #expect(PlanTable.variant(of: "login [browser: chrome, connection: email]") == nil)
    #expect(PlanTable.variant(of: "m: t [browser: chrome, connection: email]") == "browser: chrome, connection: email")
    var report = ReportFixtures.plan
    report.scenarios = ScenarioReports([implicit])
    let html = HTMLDocument(report: report, revealSecrets: false).render()
    #expect(html.contains("<code>oidcc-server</code> <span class=\"variant\">response_type: id_token token</span>"))
    let text = try await JSONReportSchemaTests.render(report, name: "variant.json")
    let modules = try Value(jsonText: text).lookup(path: ["test_plans"])?.arrayValue?.first?.member("modules")
    #expect(modules?.arrayValue?.first?.member("variant") == "response_type: id_token token")
  }

  @Test func theJSONReportCarriesTheTable() async throws {
    let text = try await JSONReportSchemaTests.render(ReportFixtures.plan, name: "plan.json")
    let value = try Value(jsonText: text)
    let plans = try #require(value.member("test_plans")?.arrayValue)
    #expect(plans.count == 1)
    #expect(plans[0].member("plan") == "oidcc-basic-certification-test-plan")
    #expect(plans[0].lookup(path: ["counts", "review"]) == 1)
    #expect(plans[0].lookup(path: ["counts", "error"]) == 0)
    let modules = try #require(plans[0].member("modules")?.arrayValue)
    #expect(modules.map { $0.member("result")?.stringValue } == ["passed", "failed", "warning", "review", "skipped"])
    // A merge rebuilds the same table from the same scenarios.
    let merged = try JSONReport.merge([JSONReport.Input(name: "plan.json", data: Data(text.utf8))])
    // (a merge orders the scenarios by file).
    let rows = { (report: RunReport) in PlanTable.tables(of: report).flatMap(\.rows).sorted { $0.file < $1.file } }
    #expect(rows(merged) == rows(ReportFixtures.plan))
  }

  @Test func theHTMLReportShowsTheTable() async throws {
    let html = HTMLDocument(report: ReportFixtures.plan, revealSecrets: false).render()
    #expect(html.contains("oidcc-basic-certification-test-plan: 1 passed, 1 warning, 1 review, 1 skipped, 1 failed"))
    #expect(html.contains("<span class=\"badge st-review\">review</span>"))
    #expect(html.contains("<code>oidcc-codereuse</code>"))
  }
}
