import AuthFlowResults

/// Why JSON reports could not be read or merged. Its description is the message, naming the file.
public struct JSONReportError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String

  static let nothingToMerge = JSONReportError(description: "no JSON reports to merge")

  static func notAReport(_ file: String) -> JSONReportError {
    JSONReportError(
      description:
        "\(file): not an authflow JSON report (write one with 'authflow run --reporter json:FILE')")
  }

  static func unsupportedVersion(_ file: String, found: Int?) -> JSONReportError {
    let version = found.map(String.init) ?? "none"
    let readable = JSONReport.readableVersions.map(String.init)
    let list = readable.dropLast().joined(separator: ", ") + (readable.count > 1 ? " and " : "") + (readable.last ?? "")
    return JSONReportError(
      description:
        "\(file): report version \(version); this authflow reads versions \(list) (run every shard with the same authflow)"
    )
  }

  static func malformed(_ file: String, path: String, expected: String) -> JSONReportError {
    JSONReportError(description: "\(file): \(path.isEmpty ? "the report" : path): expected \(expected)")
  }

  static func tooLarge(_ file: String, size: Int, limit: Int) -> JSONReportError {
    JSONReportError(
      description: "\(file): \(size) bytes is more than the \(limit) bytes a report may have (is it a report?)")
  }

  static func unreadable(_ file: String, reason: String) -> JSONReportError {
    JSONReportError(description: "\(file): cannot be read: \(reason)")
  }

  static func secretsShown(_ file: String) -> JSONReportError {
    JSONReportError(
      description:
        "\(file): written with --show-secrets, so it holds secrets in clear; pass --show-secrets to merge it knowingly")
  }

  static func overlappingShards(_ first: String, _ second: String, shard: String, tenant: String) -> JSONReportError {
    JSONReportError(
      description: "\(first) and \(second) are both shard \(shard) of tenant '\(tenant)': give each shard's report once"
    )
  }

  static func mixedShardCounts(_ first: String, _ second: String, tenant: String) -> JSONReportError {
    JSONReportError(
      description:
        "\(first) and \(second) split tenant '\(tenant)' differently (different --shard N, or one is a whole run): merge the shards of one run"
    )
  }

  static func missingShards(_ missing: [String], tenant: String, given: Int) -> JSONReportError {
    let noun = missing.count == 1 ? "shard" : "shards"
    return JSONReportError(
      description:
        "missing \(noun) \(missing.joined(separator: ", ")) of tenant '\(tenant)' (\(given) given): merge every shard, or the verdict would not be the whole run's"
    )
  }

  static func differentSelections(
    _ first: (name: String, selection: Shard.Selection), _ second: (name: String, selection: Shard.Selection),
    tenant: String
  ) -> JSONReportError {
    JSONReportError(
      description:
        "\(first.name) and \(second.name) are shards of different runs of tenant '\(tenant)': the first split \(first.selection), the second \(second.selection); run every shard on the same commit with the same paths, --tag and --skip-tag"
    )
  }

  static func incompleteSelection(tenant: String, selected: Int, merged: Int) -> JSONReportError {
    JSONReportError(
      description:
        "the shards of tenant '\(tenant)' selected \(selected) scenario instance\(selected == 1 ? "" : "s"), but their reports hold \(merged): a report is missing scenarios, so the verdict would not be the whole run's"
    )
  }

  static func duplicateScenario(_ name: String, tenant: String, first: String, second: String) -> JSONReportError {
    JSONReportError(
      description:
        "scenario '\(name)' on tenant '\(tenant)' is in both \(first) and \(second): the reports overlap (merge reports of disjoint runs)"
    )
  }
}
