import AuthFlowCore
import AuthFlowScenario
import Testing

/// `monitor:` of `authflow.yaml`: read with its ranges, each mistake located with a hint.
@Suite struct MonitorProfileParsingTests {
  static func parse(_ monitor: String) -> (MonitorProfile?, [Diagnostic]) {
    let text = "tenants:\n  mock: { kind: mock }\nmonitor:\n" + monitor
    let (config, diagnostics) = ProjectConfigParser().parse(text, file: "authflow.yaml")
    return (config?.monitor, diagnostics)
  }

  @Test func aFullSectionIsRead() throws {
    let (profile, diagnostics) = Self.parse(
      """
        interval: 2m
        jitter: 20%
        concurrency: 4
        schedules:
          - { tag: login, interval: 30s }
          - { scenario: "Refresh token rotation", interval: 15m }
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let monitor = try #require(profile)
    #expect(monitor.interval == .seconds(120))
    #expect(monitor.jitterPercent == 20)
    #expect(monitor.concurrency == 4)
    #expect(monitor.schedules.map(\.match) == [.tag("login"), .scenario("Refresh token rotation")])
    #expect(monitor.schedules.map(\.interval) == [.seconds(30), .seconds(900)])
  }

  @Test(arguments: [
    ("  interval: 0s\n", "'monitor.interval' must be at least 1s", 4),
    ("  interval: 25h\n", "monitor.interval", 4),
    ("  jitter: 60%\n", "'monitor.jitter' must be between 0% and 50% (got 60%)", 4),
    ("  concurrency: 0\n", "'monitor.concurrency' must be between 1 and 64 (got 0)", 4),
    ("  schedules:\n    - { tag: a, scenario: b, interval: 1m }\n", "names a tag or a scenario, not both", 5),
    ("  schedules:\n    - { tag: a }\n", "needs 'interval'", 5),
    ("  schedules:\n    - { interval: 1m }\n", "needs 'tag' or 'scenario'", 5),
    ("  intervall: 1m\n", "intervall", 4),
  ])
  func aMistakeIsLocated(_ text: String, _ message: String, _ line: Int) throws {
    let (_, diagnostics) = Self.parse(text)
    let error = try #require(diagnostics.first { $0.isError }, "no error for \(text)")
    #expect(error.message.contains(message), "\(error.message)")
    #expect(error.location?.line == line)
    #expect(error.location?.file == "authflow.yaml")
  }

  @Test func withoutTheSectionTheDefaultsHold() throws {
    let (config, diagnostics) = ProjectConfigParser().parse("tenants:\n  mock: { kind: mock }\n", file: "a.yaml")
    #expect(diagnostics.isEmpty)
    #expect(config?.monitor == MonitorProfile())
  }
}
