import AuthFlowCore
import AuthFlowHTTP
import AuthFlowResults
import AuthFlowRuntime
import NIOPosix
import Synchronization
import Testing

/// Records, for each scenario, whether its task was on an event loop when it started.
private final class PlacementObserver: RunObserver {
  let onLoop = Mutex<[String: Bool]>([:])

  func scenarioStarted(name: String, file: String) async {
    let placed = MultiThreadedEventLoopGroup.currentEventLoop != nil
    onLoop.withLock { $0[name] = placed }
  }
  func stepFinished(_ step: StepReport, scenario: String) async {}
  func scenarioFinished(_ report: ScenarioReport) async {}
}

/// The runner starts each scenario on one of `RunServices.jobExecutors` (the HTTP client's event
/// loops, as `authflow run` sets them), and on the task pool without them.
@Suite struct ScenarioPlacementTests {
  static let yamls = (0..<4).map { index in
    """
    scenario: placed \(index)
    steps:
      - id: discovery
        http: { method: GET, url: "${{ tenant.base_url }}.well-known/openid-configuration" }
        expect: { status: 200 }
    """
  }

  private func placements(withExecutors: Bool) async throws -> (RunReport, [String: Bool]) {
    let observer = PlacementObserver()
    let instances = try Self.yamls.enumerated().flatMap { index, yaml in
      try ScenarioHarness.parse(yaml, file: "placed\(index).yaml").instances
    }
    let report = try await MockHarness.run(
      instances: instances, secrets: SecretRegistry(), jobs: 2, observer: observer, loops: withExecutors)
    return (report, observer.onLoop.withLock { $0 })
  }

  @Test func eachScenarioRunsOnAnEventLoop() async throws {
    let (report, placed) = try await placements(withExecutors: true)
    #expect(report.scenarios.allSatisfy { $0.status == .passed }, "\(report.scenarios.map(\.problemSummary))")
    #expect(placed.count == 4)
    #expect(placed.values.allSatisfy { $0 }, "\(placed)")
  }

  @Test func withoutExecutorsScenariosRunOnTheTaskPool() async throws {
    let (report, placed) = try await placements(withExecutors: false)
    #expect(report.scenarios.allSatisfy { $0.status == .passed })
    #expect(placed.count == 4)
    #expect(placed.values.allSatisfy { !$0 }, "\(placed)")
  }
}
