import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// Scenarios that move the mock's shared clock run alone, and the clock is put back after them.
@Suite struct ClockExclusivityTests {
  /// Records scenario starts and ends in the order they happen.
  actor Timeline: RunObserver {
    enum Event: Equatable {
      case start(String)
      case end(String)
    }

    private(set) var events: [Event] = []

    func scenarioStarted(name: String, file: String) async { events.append(.start(name)) }
    func stepFinished(_ step: StepReport, scenario: String) async {}
    func scenarioFinished(_ report: ScenarioReport) async { events.append(.end(report.name)) }
  }

  static func slow(_ name: String) -> String {
    """
    scenario: \(name)
    steps:
      - id: before
        http: { url: .well-known/openid-configuration }
      - id: pause
        wait: { for: 300ms }
      - id: after
        http: { url: .well-known/openid-configuration }
    """
  }

  static let movesClock = """
    scenario: Moves the clock
    requires: [mock_control]
    steps:
      - id: forward
        mock_clock: 1h
      - id: pause
        wait: { for: 100ms }
    """

  static let checksClock = """
    scenario: Finds the clock put back
    requires: [mock_control]
    steps:
      - id: clock
        http: { url: __mock/clock }
        expect: { body.offset: 0 }
      - id: nudge
        mock_clock: 1s
    """

  @Test("A `mock_clock` scenario runs with no other scenario running; the others still run concurrently")
  func runsAlone() async throws {
    let timeline = Timeline()
    let instances = try [
      Self.slow("Slow one"), Self.movesClock, Self.slow("Slow two"), Self.checksClock, Self.slow("Slow three"),
    ]
    .enumerated().flatMap { index, yaml in try ScenarioHarness.parse(yaml, file: "s\(index).yaml").instances }
    #expect(instances.map(\.movesMockClock) == [false, true, false, true, false])
    let report = try await MockHarness.run(instances: instances, secrets: SecretRegistry(), jobs: 4, observer: timeline)
    for scenario in report.scenarios {
      #expect(scenario.status == .passed, "\(scenario.name): \(scenario.problemSummary)")
    }
    #expect(
      report.scenarios.map(\.name) == [
        "Slow one", "Moves the clock", "Slow two", "Finds the clock put back", "Slow three",
      ])
    let events = await timeline.events
    for exclusive in ["Moves the clock", "Finds the clock put back"] {
      let start = try #require(events.firstIndex(of: .start(exclusive)))
      let end = try #require(events.firstIndex(of: .end(exclusive)))
      #expect(end == start + 1, "another scenario started or ended while '\(exclusive)' ran: \(events)")
      let open = events[..<start].filter { event in
        if case .start(let name) = event { return !events[..<start].contains(.end(name)) }
        return false
      }
      #expect(open.isEmpty, "'\(exclusive)' started while \(open) were running")
    }
    // The ordinary scenarios did overlap: concurrency is only given up around the clock.
    let firstEnd = try #require(events.firstIndex { if case .end = $0 { return true } else { return false } })
    #expect(events[..<firstEnd].count == 3, "\(events)")
  }
}
