public import Foundation

/// Every row of one benchmark run, with what the figures depend on: the build configuration and
/// the machine's cores.
public struct BenchmarkReport: Sendable, Codable {
  public var configuration: BuildConfiguration
  public var processorCount: Int
  public var startedAt: Date
  public var quick: Bool
  public var results: [BenchmarkResult]

  public init(
    configuration: BuildConfiguration = .current,
    processorCount: Int = ProcessInfo.processInfo.activeProcessorCount, startedAt: Date, quick: Bool,
    results: [BenchmarkResult]
  ) {
    self.configuration = configuration
    self.processorCount = processorCount
    self.startedAt = startedAt
    self.quick = quick
    self.results = results
  }

  /// The report as pretty-printed JSON (samples included), for `--json FILE`.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return try encoder.encode(self)
  }
}
