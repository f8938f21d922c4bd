import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowBenchmark

@Suite struct BenchmarkResultTests {
  func result(_ samples: [Double], target: BenchmarkTarget?, failure: String? = nil) -> BenchmarkResult {
    BenchmarkResult(
      id: "x", measure: "x", unit: "ms", samples: samples, iterations: samples.count, target: target,
      failure: failure)
  }

  @Test func aDurationPassesAtOrUnderItsBound() {
    #expect(result([10, 20, 30], target: .atMost(20)).verdict == .pass)
    #expect(result([10, 21, 30], target: .atMost(20)).verdict == .miss)
    #expect(result([10, 20, 30], target: .atMost(40)).ratio == 2)
  }

  @Test func aThroughputPassesAtOrOverItsBound() {
    #expect(result([400, 500, 900], target: .atLeast(500)).verdict == .pass)
    #expect(result([400, 499, 900], target: .atLeast(500)).verdict == .miss)
    #expect(result([250, 250], target: .atLeast(500)).ratio == 0.5)
  }

  @Test func theMedianDecidesNotTheBestSample() {
    #expect(result([1, 100, 100], target: .atMost(20)).verdict == .miss)
  }

  @Test func failuresAndMissingTargetsAreNotVerdicts() {
    #expect(result([1], target: .atMost(20), failure: "boom").verdict == .error)
    #expect(result([], target: .atMost(20)).verdict == .error)
    #expect(result([1], target: nil).verdict == .info)
  }

  @Test func aLoginRowIsJudgedByItsShareOfTheLimit() {
    var row = result([300, 320, 340], target: DesignTargets.sequentialFlows)
    // Without a measured limit there is nothing to judge the share by.
    #expect(row.verdict == .error)
    row.limit = FlowLimit(signingRate: 1_400, cores: 1, signaturesPerFlow: 2)
    // 320 of 700 flows/s is 45.7 % ≥ 40 %.
    #expect(row.verdict == .pass)
    #expect(abs((row.ratio ?? 0) - 320.0 / 700 / 0.40) < 1e-9)
    row.limit = FlowLimit(signingRate: 2_000, cores: 1, signaturesPerFlow: 2)
    // 320 of 1,000 flows/s is 32 % < 40 %.
    #expect(row.verdict == .miss)
  }

  @Test func theTableShowsEveryRowAndWarnsOnDebugBuilds() {
    var flows = BenchmarkResult(
      id: "login_flows_sequential", measure: "login flows, one at a time", unit: "flows/s",
      samples: [410, 420.4, 1_234.5], iterations: 2_000, target: DesignTargets.sequentialFlows,
      note: "per flow: median 2.38 ms")
    flows.limit = FlowLimit(signingRate: 1_400, cores: 1, signaturesPerFlow: 2)
    let report = BenchmarkReport(
      configuration: .debug, processorCount: 2, startedAt: Date(timeIntervalSince1970: 0), quick: true,
      results: [
        BenchmarkResult(
          id: "validate_one_file", measure: "validate 1 file, cold process", unit: "ms", samples: [12.5, 14, 30],
          iterations: 3, target: DesignTargets.validateOneFile),
        flows,
        .failed(
          id: "peak_memory", measure: "peak memory", unit: "MB", target: DesignTargets.peakMemory,
          reason: "`authflow run` exited with status 1"),
        BenchmarkResult(
          id: "run_many_scenarios", measure: "run 1,000 scenarios", unit: "ms", samples: [2_500], iterations: 1_000,
          target: nil),
      ])
    let rendered = BenchmarkTable(report).render()
    #expect(Snapshot.verify(rendered, named: "table") == nil)
  }

  @Test func theJSONCarriesEverySample() throws {
    let report = BenchmarkReport(
      configuration: .release, processorCount: 2, startedAt: Date(timeIntervalSince1970: 0), quick: false,
      results: [result([1, 2, 3], target: .atMost(20))])
    let decoded = try JSONDecoder().decode(BenchmarkReportShape.self, from: report.jsonData())
    #expect(decoded.configuration == "release")
    #expect(decoded.results.first?.samples == [1, 2, 3])
  }

  struct BenchmarkReportShape: Decodable {
    struct Row: Decodable { var samples: [Double] }
    var configuration: String
    var results: [Row]
  }
}
