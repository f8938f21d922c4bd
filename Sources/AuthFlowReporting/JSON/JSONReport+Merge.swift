public import AuthFlowCore
public import AuthFlowResults
public import Foundation

extension JSONReport {
  /// One JSON report to merge: its name in messages (the path) and its bytes.
  public struct Input: Sendable {
    public var name: String
    public var data: Data

    public init(name: String, data: Data) {
      self.name = name
      self.data = data
    }

    /// The file at `path`, refusing what is not a regular file or is larger than a report may be
    /// (``AuthFlowCore/InputLimits/reportFileBytes``) before reading it.
    public static func read(_ path: String, limit: Int = InputLimits.reportFileBytes) throws(JSONReportError) -> Input {
      let attributes: [FileAttributeKey: Any]
      do {
        attributes = try FileManager.default.attributesOfItem(atPath: path)
      } catch {
        throw .unreadable(path, reason: "no such file")
      }
      guard attributes[.type] as? FileAttributeType == .typeRegular else {
        throw .unreadable(path, reason: "not a regular file")
      }
      let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
      if size > limit { throw .tooLarge(path, size: size, limit: limit) }
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw .unreadable(path, reason: "permission denied")
      }
      defer { try? handle.close() }
      let data = (try? handle.read(upToCount: limit + 1)) ?? nil
      if let data, data.count > limit { throw .tooLarge(path, size: data.count, limit: limit) }
      return Input(name: path, data: data ?? Data())
    }
  }

  /// Merges the JSON reports of the shards of a run (`--shard K/N`), and of runs on several
  /// tenants, into one run report that any reporter renders; its verdicts are those of the whole
  /// run.
  ///
  /// Checked (each an error naming the files): every report is one of this format and of a version
  /// it reads;
  /// per tenant, the shards are all there, once each, of one `N` and of one selection (the
  /// scenario instances the whole run selected: version 4), and together hold every instance it
  /// selected (or the tenant's reports are whole runs of disjoint scenarios); no scenario instance
  /// is in two reports; a report written with `--show-secrets` needs `showSecrets`.
  ///
  /// Scenarios are sorted by tenant (in the order reports name them), file, line, then name, so
  /// the result does not depend on the order the reports are given; `startedAt` is the earliest
  /// start, the duration spans from it to the latest end, `interrupted` is true when any report
  /// was, and its stop cause is that of the first stopped report (by tenant, then shard). Reports
  /// of versions 2, 3 and 4 merge together (``readableVersions``). With several tenants each scenario carries its tenant (JUnit suites and the HTML
  /// report's tenant filter keep them apart).
  public static func merge(_ inputs: [Input], showSecrets: Bool = false) throws(JSONReportError) -> RunReport {
    guard !inputs.isEmpty else { throw .nothingToMerge }
    var decoded: [(name: String, report: RunReport)] = []
    for input in inputs {
      let report = try decode(input.data, name: input.name)
      if report.secretsShown, !showSecrets { throw .secretsShown(input.name) }
      decoded.append((input.name, report.report))
    }
    var tenants: [String] = []
    for (_, report) in decoded where !tenants.contains(report.tenant) { tenants.append(report.tenant) }
    var selections: [String: Shard.Selection] = [:]
    for tenant in tenants {
      selections[tenant] = try checkShards(decoded.filter { $0.report.tenant == tenant }, tenant: tenant)
    }

    var seen: [String: String] = [:]
    var scenarios: [(order: Int, scenario: ScenarioReport)] = []
    for (name, report) in decoded {
      let order = tenants.firstIndex(of: report.tenant) ?? 0
      for var scenario in report.scenarios {
        let tenant = scenario.tenant ?? report.tenant
        let key = "\(tenant)\u{0}\(scenario.file)\u{0}\(scenario.name)"
        if let first = seen[key] {
          throw .duplicateScenario(scenario.name, tenant: tenant, first: first, second: name)
        }
        seen[key] = name
        if tenants.count > 1 { scenario.tenant = tenant }
        scenarios.append((order, scenario))
      }
    }
    // Shards of one selection hold every instance it selected, once on each of their tenants.
    for (tenant, selection) in selections {
      let merged = decoded.filter { $0.report.tenant == tenant }.reduce(0) { $0 + $1.report.scenarios.count }
      let (expected, overflow) = selection.instances.multipliedReportingOverflow(
        by: tenant.split(separator: ",").count)
      if overflow || merged != expected {
        throw .incompleteSelection(tenant: tenant, selected: expected, merged: merged)
      }
    }
    scenarios.sort { lhs, rhs in
      (lhs.order, lhs.scenario.file, lhs.scenario.location.line, lhs.scenario.name)
        < (rhs.order, rhs.scenario.file, rhs.scenario.location.line, rhs.scenario.name)
    }
    // The stop cause of the first stopped report, by tenant and shard: what cut the merged run.
    let stopCause = decoded.map(\.report).filter(\.interrupted).sorted { lhs, rhs in
      (tenants.firstIndex(of: lhs.tenant) ?? 0, lhs.shard?.index ?? 0)
        < (tenants.firstIndex(of: rhs.tenant) ?? 0, rhs.shard?.index ?? 0)
    }.lazy.compactMap(\.stopCause).first
    let start = decoded.map(\.report.startedAt).min() ?? Date(timeIntervalSince1970: 0)
    let end = decoded.map { $0.report.startedAt.addingTimeInterval($0.report.duration.seconds) }.max() ?? start
    return RunReport(
      tenant: tenants.joined(separator: ","), startedAt: start,
      duration: .milliseconds(Int((end.timeIntervalSince(start) * 1000).rounded())),
      scenarios: scenarios.map(\.scenario), interrupted: decoded.contains { $0.report.interrupted },
      stopCause: stopCause)
  }

  /// The reports of one tenant: shards of one run, all there, once each, of one selection; or
  /// whole runs. The selection the shards share, when they all record it (reports of version 4).
  private static func checkShards(
    _ reports: [(name: String, report: RunReport)], tenant: String
  ) throws(JSONReportError) -> Shard.Selection? {
    guard let first = reports.first(where: { $0.report.shard != nil }), let count = first.report.shard?.count else {
      return nil
    }
    var byIndex: [Int: String] = [:]
    var selected: (name: String, selection: Shard.Selection)?
    var everyShardSays = true
    for (name, report) in reports {
      guard let shard = report.shard, shard.count == count else {
        throw .mixedShardCounts(first.name, name, tenant: tenant)
      }
      if let other = byIndex[shard.index] {
        throw .overlappingShards(other, name, shard: shard.description, tenant: tenant)
      }
      byIndex[shard.index] = name
      guard let selection = shard.selection else {
        everyShardSays = false
        continue
      }
      if let earlier = selected, earlier.selection != selection {
        throw .differentSelections(earlier, (name, selection), tenant: tenant)
      }
      selected = selected ?? (name, selection)
    }
    let missing = (1...count).filter { byIndex[$0] == nil }.map { "\($0)/\(count)" }
    if !missing.isEmpty { throw .missingShards(missing, tenant: tenant, given: byIndex.count) }
    return everyShardSays ? selected?.selection : nil
  }
}
