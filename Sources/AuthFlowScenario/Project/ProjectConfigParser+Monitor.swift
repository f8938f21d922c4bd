import AuthFlowCore
import AuthFlowYAML

extension ParseContext {
  /// The keys of `monitor:`.
  static let monitorKeys = ["interval", "jitter", "concurrency", "schedules"]
  /// The keys of one of its `schedules`.
  static let monitorScheduleKeys = ["tag", "scenario", "interval"]

  /// `monitor:` of `authflow.yaml`; what is wrong in it is reported and its default kept.
  mutating func monitor(_ node: YAMLNode) -> MonitorProfile {
    var profile = MonitorProfile()
    guard let pairs = mapping(node, for: "monitor") else { return profile }
    let keys = knownPairs(pairs, allowed: Self.monitorKeys, in: "monitor")
    if let pair = keys["interval"], let interval = monitorInterval(pair.value, for: "monitor.interval") {
      profile.interval = interval
    }
    if let pair = keys["jitter"], let jitter = percent(pair.value, for: "monitor.jitter") {
      profile.jitterPercent = jitter
    }
    if let pair = keys["concurrency"],
      let number = wholeNumber(pair.value, for: "monitor.concurrency", in: InputLimits.monitorConcurrency)
    {
      profile.concurrency = number
    }
    if let pair = keys["schedules"] {
      guard case .sequence(let items, _) = pair.value else {
        report(
          .wrongType(
            expected: "a list of schedules ({ tag: login, interval: 1m })", found: pair.value, for: "monitor.schedules")
        )
        return profile
      }
      if items.count > InputLimits.monitorSchedules {
        report(
          .error(
            "'monitor.schedules' has \(items.count) schedules, more than \(InputLimits.monitorSchedules)",
            at: pair.value.location, hint: "schedule by tag rather than scenario by scenario"))
      }
      for item in items.prefix(InputLimits.monitorSchedules) {
        if let schedule = monitorSchedule(item) { profile.schedules.append(schedule) }
      }
    }
    return profile
  }

  private mutating func monitorSchedule(_ node: YAMLNode) -> MonitorProfile.Schedule? {
    guard let pairs = mapping(node, for: "a schedule of monitor.schedules", expected: "{ tag: NAME, interval: 1m }")
    else { return nil }
    let keys = knownPairs(pairs, allowed: Self.monitorScheduleKeys, in: "a schedule of monitor.schedules")
    let tag = keys["tag"].flatMap { string($0.value, for: "tag") }
    let scenario = keys["scenario"].flatMap { string($0.value, for: "scenario") }
    let interval = keys["interval"].flatMap { monitorInterval($0.value, for: "interval") }
    if keys["interval"] == nil {
      report(
        .error(
          "a schedule of 'monitor.schedules' needs 'interval'", at: node.location,
          hint: "write '{ tag: login, interval: 1m }'"))
    }
    let match: MonitorProfile.Schedule.Match
    switch (tag, scenario) {
    case (let tag?, nil): match = .tag(tag.value)
    case (nil, let scenario?): match = .scenario(scenario.value)
    case (.some, .some):
      report(
        .error(
          "a schedule of 'monitor.schedules' names a tag or a scenario, not both", at: node.location,
          hint: "write two schedules; the first that matches a scenario wins"))
      return nil
    case (nil, nil):
      if keys["tag"] == nil, keys["scenario"] == nil {
        report(
          .error(
            "a schedule of 'monitor.schedules' needs 'tag' or 'scenario'", at: node.location,
            hint: "write '{ tag: login, interval: 1m }' or '{ scenario: \"Login\", interval: 30s }'"))
      }
      return nil
    }
    guard let interval else { return nil }
    return MonitorProfile.Schedule(match: match, interval: interval, location: node.location)
  }

  /// A duration within ``InputLimits/monitorInterval``.
  private mutating func monitorInterval(_ node: YAMLNode, for key: String) -> Duration? {
    guard let interval = duration(node, for: key, maximum: InputLimits.monitorInterval.upperBound) else { return nil }
    guard interval.value >= InputLimits.monitorInterval.lowerBound else {
      report(
        .error(
          "'\(key)' must be at least 1s (got \(DurationText.format(interval.value)))", at: interval.location,
          hint: "a scenario runs at most once a second; 1m or more suits most tenants' rate limits"))
      return nil
    }
    return interval.value
  }

  /// `10%` or `10`: a whole percent within ``InputLimits/monitorJitterPercent``.
  private mutating func percent(_ node: YAMLNode, for key: String) -> Int? {
    let range = InputLimits.monitorJitterPercent
    var text = node.scalar?.text ?? ""
    if text.hasSuffix("%") { text.removeLast() }
    guard !node.isNull, node.scalar != nil, let number = Int(text.filter { $0 != " " }) else {
      report(.wrongType(expected: "a percentage such as 10%", found: node, for: key))
      return nil
    }
    guard range.contains(number) else {
      report(
        .error(
          "'\(key)' must be between \(range.lowerBound)% and \(range.upperBound)% (got \(number)%)",
          at: node.location, hint: "the share of the interval a start may move by, earlier or later"))
      return nil
    }
    return number
  }

  /// A whole number within `range`.
  private mutating func wholeNumber(_ node: YAMLNode, for key: String, in range: ClosedRange<Int>) -> Int? {
    guard case .int(let number)? = node.scalar?.value else {
      report(.wrongType(expected: "a whole number", found: node, for: key))
      return nil
    }
    guard range.contains(number) else {
      report(
        .error(
          "'\(key)' must be between \(range.lowerBound) and \(range.upperBound) (got \(number))", at: node.location,
          hint: nil))
      return nil
    }
    return number
  }
}
