import AuthFlowMonitor
import AuthFlowScenario
import Testing

/// The schedule's rules: an interval from a run's start, jitter within its percent, never due
/// while running, a late run followed by the next at once, never two.
@Suite struct MonitorScheduleTests {
  static let start = ContinuousClock.now

  @Test func aTargetIsNotDueWhileItRunsAndIsDueAnIntervalAfterItsStart() {
    var schedule = MonitorSchedule(jitterPercent: 0, random: { 0.5 })
    schedule.add("a", interval: .seconds(60), now: Self.start)
    #expect(schedule.due(at: Self.start) == ["a"])
    schedule.started("a")
    #expect(schedule.due(at: Self.start + .seconds(600)).isEmpty)
    #expect(schedule.nextDue == nil)
    schedule.finished("a", startedAt: Self.start, now: Self.start + .seconds(2))
    #expect(schedule.nextDue == Self.start + .seconds(60))
    #expect(schedule.due(at: Self.start + .seconds(59)).isEmpty)
    #expect(schedule.due(at: Self.start + .seconds(60)) == ["a"])
  }

  /// A run longer than its interval: the next starts when it ends, not an interval later, and
  /// not twice for the intervals it missed.
  @Test func aRunLongerThanItsIntervalIsFollowedOnceAtOnce() {
    var schedule = MonitorSchedule(jitterPercent: 0, random: { 0.5 })
    schedule.add("a", interval: .seconds(10), now: Self.start)
    schedule.started("a")
    schedule.finished("a", startedAt: Self.start, now: Self.start + .seconds(35))
    #expect(schedule.nextDue == Self.start + .seconds(35))
    #expect(schedule.due(at: Self.start + .seconds(35)) == ["a"])
  }

  /// With 10% jitter a start moves by at most 6 s of a minute, either way, and the first runs
  /// spread over the first 6 s.
  @Test(arguments: [0.0, 0.25, 0.5, 0.999])
  func jitterStaysWithinItsPercent(_ draw: Double) {
    var schedule = MonitorSchedule(jitterPercent: 10, random: { draw })
    schedule.add("a", interval: .seconds(60), now: Self.start)
    let first = schedule.nextDue!
    #expect(first >= Self.start && first <= Self.start + .seconds(6))
    schedule.started("a")
    schedule.finished("a", startedAt: Self.start, now: Self.start + .seconds(1))
    let next = schedule.nextDue!
    #expect(next >= Self.start + .seconds(54) && next <= Self.start + .seconds(66))
  }

  @Test func dueTargetsComeEarliestFirst() {
    var schedule = MonitorSchedule(jitterPercent: 0, random: { 0 })
    schedule.add("late", interval: .seconds(60), now: Self.start + .seconds(5))
    schedule.add("early", interval: .seconds(60), now: Self.start)
    #expect(schedule.due(at: Self.start + .seconds(10)) == ["early", "late"])
    schedule.remove("early")
    #expect(schedule.due(at: Self.start + .seconds(10)) == ["late"])
  }

  @Test func theFirstMatchingScheduleGivesTheInterval() {
    var profile = MonitorProfile()
    profile.schedules = [
      .init(match: .scenario("Login"), interval: .seconds(30)), .init(match: .tag("slow"), interval: .seconds(900)),
      .init(match: .tag("login"), interval: .seconds(60)),
    ]
    #expect(profile.interval(name: "Login", tags: ["slow"]) == .seconds(30))
    #expect(profile.interval(name: "Other", tags: ["login", "slow"]) == .seconds(900))
    #expect(profile.interval(name: "Other", tags: ["login"]) == .seconds(60))
    #expect(profile.interval(name: "Other", tags: []) == MonitorProfile.defaultInterval)
  }
}
