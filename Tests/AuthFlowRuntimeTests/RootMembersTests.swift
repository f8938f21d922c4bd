import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// The validator rejects members of `tenant`, `tenant.endpoints` and `scenario` outside
/// ``RootMembers``; the runtime must build those objects with exactly those members, or a valid
/// reference would read null (or a typo pass validation).
@Suite struct RootMembersTests {
  @Test func theRuntimesRootsHaveExactlyTheValidatorsMembers() async throws {
    let objects: [(String, [String])] = [
      ("scenario", RootMembers.scenario), ("tenant", RootMembers.tenant), ("tenant.endpoints", RootMembers.endpoints),
    ]
    var checks: [String] = []
    for (object, members) in objects {
      checks.append("len(\(object)) == \(members.count)")
      checks += members.map { "contains(\(object), '\($0)')" }
    }
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Every root member
      steps:
      \(checks.map { "  - assert: ${{ \($0) }}" }.joined(separator: "\n"))
      """)
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
    #expect(report.steps.count == checks.count)
  }
}
