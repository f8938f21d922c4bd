import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

@testable import AuthFlowBenchmark

/// The measuring machinery with tiny counts; no test asserts a timing.
@Suite struct MeasuringMachineryTests {
  @Test func aChildReportsItsExitStatusMemoryAndStandardError() throws {
    let outcome = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo oops >&2; exit 3"]).run()
    #expect(outcome.status == 3)
    #expect(outcome.maxResidentBytes > 0)
    #expect(outcome.standardErrorTail == "oops\n")
    #expect(throws: ChildProcess.Failure.self) {
      try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exit 1"]).runSuccessfully()
    }
    #expect(throws: ChildProcess.Failure.self) {
      try ChildProcess(executable: "/nonexistent/authflow", arguments: []).run()
    }
  }

  /// The memory rows at 1,000, 10,000 and 100,000 scenarios: `--quick` keeps 10,000 and skips
  /// 100,000 (writing and running 100,000 files takes minutes).
  @Test func theLargerMemoryRunsAreTenAndAHundredThousandQuickSkipsTheLargest() {
    let full = BenchmarkOptions(executable: "/bin/true")
    #expect(full.memoryScenarioCount == 1_000)
    #expect(full.largerMemoryScenarioCounts == [10_000, 100_000])
    #expect(BenchmarkOptions.quick(executable: "/bin/true").largerMemoryScenarioCounts == [10_000])
  }

  @Test func processRowsTakeOneSamplePerChildAndReportFailures() {
    var options = BenchmarkOptions.quick(executable: "/bin/true")
    options.processSamples = 2
    let passing = ProcessMeasures(options: options).validateOneFile()
    #expect(passing.failure == nil)
    #expect(passing.samples.count == 2)

    options.executable = "/bin/false"
    let failing = ProcessMeasures(options: options).runOneScenario()
    #expect(failing.verdict == .error)
    #expect(failing.failure?.contains("exited with status 1") == true)
  }

  @Test func everyCorpusScenarioIsValid() throws {
    let loader = ScenarioLoader(catalog: ActionRegistry.catalog, functions: Pipeline.functions)
    for index in 0..<ScenarioCorpus.templates.count {
      let (scenario, diagnostics) = loader.load(text: ScenarioCorpus.scenario(index), file: "corpus\(index).yaml")
      #expect(scenario != nil)
      #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
    }
  }

  @Test func theCorpusIsWrittenAndRemoved() throws {
    let directory = try TemporaryDirectory()
    let paths = try ScenarioCorpus.write(count: 5, into: directory.path)
    #expect(paths.count == 5)
    #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    directory.remove()
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func loginFlowsRunAgainstTheEmbeddedMockBoundedByCount() async throws {
    let rig = try await LoginFlowRig.start()
    let sequential = try await rig.runSequential(limit: 3, duration: .seconds(60))
    let concurrent = try await rig.runConcurrent(workers: 2, limit: 4, duration: .seconds(60))
    await rig.stop()
    #expect(sequential.flows == 3)
    #expect(sequential.latencies.count == 3)
    #expect(concurrent.flows == 4)
  }

  @Test func loginFlowRowsProduceOneSamplePerRoundWithTheirLimit() async throws {
    var options = BenchmarkOptions.quick(executable: "/bin/true")
    options.flowIterations = 4
    options.flowRounds = 2
    options.workers = 2
    options.signingIterations = 4
    let results = await LoginFlowMeasures(options: options).all()
    #expect(
      results.map(\.id) == [
        "rsa_sign_one_core", "rsa_sign_all_cores", "login_flows_sequential", "login_flows_concurrent",
        "login_flows_sequential_in_process", "login_flows_concurrent_in_process", "login_flows_sequential_no_audience",
      ])
    for result in results {
      #expect(result.failure == nil)
      #expect(result.samples.count == 2)
    }
    // Signatures counted on the mock: two per login with an audience, one without.
    let limits = Dictionary(uniqueKeysWithValues: results.map { ($0.id, $0.limit) })
    #expect(limits["login_flows_sequential"]??.signaturesPerFlow == 2)
    #expect(limits["login_flows_concurrent"]??.signaturesPerFlow == 2)
    #expect(limits["login_flows_sequential_no_audience"]??.signaturesPerFlow == 1)
    #expect(limits["login_flows_sequential_in_process"]??.signaturesPerFlow == 2)
    #expect(limits["login_flows_concurrent_in_process"]??.signaturesPerFlow == 2)
    #expect(limits["login_flows_sequential"]??.cores == 1)
    #expect(limits["rsa_sign_one_core"]! == nil)
    let table = BenchmarkTable(BenchmarkReport(startedAt: Date(), quick: true, results: results)).render()
    #expect(table.contains("signatures per flow, counted"))
  }

  @Test func inProcessLoginFlowsPassEveryCheckAndSignAsOverLoopback() async throws {
    let rig = try await LoginFlowRig.start(transport: .inProcess)
    let before = rig.signaturesMade
    let sequential = try await rig.runSequential(limit: 3, duration: .seconds(60))
    let concurrent = try await rig.runConcurrent(workers: 2, limit: 4, duration: .seconds(60))
    let counted = rig.signaturesMade - before
    await rig.stop()
    #expect(sequential.flows == 3)
    #expect(concurrent.flows == 4)
    #expect(counted == 14)
  }

  @Test func signingLoopsAreBoundedByCountOnEveryThread() throws {
    let rate = try SigningRate()
    let one = try rate.measure(threads: 1, limit: 3, duration: .seconds(60))
    #expect(one.signatures == 3)
    #expect(one.threads == 1)
    let two = try rate.measure(threads: 2, limit: 2, duration: .seconds(60))
    #expect(two.signatures == 4)
    #expect(two.rate > 0)
  }

  @Test func theMockCountsTheSignaturesOfEachLogin() async throws {
    let withAudience = try await LoginFlowRig.start()
    let before = withAudience.signaturesMade
    _ = try await withAudience.runSequential(limit: 2, duration: .seconds(60))
    let counted = withAudience.signaturesMade - before
    await withAudience.stop()
    #expect(counted == 4)

    let withoutAudience = try await LoginFlowRig.start(audience: nil)
    let start = withoutAudience.signaturesMade
    _ = try await withoutAudience.runSequential(limit: 2, duration: .seconds(60))
    let countedWithout = withoutAudience.signaturesMade - start
    await withoutAudience.stop()
    #expect(countedWithout == 2)
  }

  @Test func eachFlowRoundHasItsOwnBoundedSigningRound() throws {
    var options = BenchmarkOptions.quick(executable: "/bin/true")
    options.flowRounds = 2
    options.signingIterations = 8
    let measures = LoginFlowMeasures(options: options)
    // One signature per loop (8 ÷ 2 rounds ÷ 4), however long the round may take.
    let rate = measures.adjacentSigningRate(try SigningRate(), threads: 2, round: (limit: 1, duration: .seconds(600)))
    #expect((rate ?? 0) > 0)
    #expect(measures.adjacentSigningRate(nil, threads: 1, round: (limit: 1, duration: .seconds(1))) == nil)
  }

  @Test func aLimitIsTheSigningRateOverTheSignaturesPerFlow() throws {
    let limit = FlowLimit(signingRate: 1_000, cores: 2, signaturesPerFlow: 2)
    #expect(limit.flowsPerSecond == 500)
    #expect(limit.share(of: 250) == 0.5)
    #expect(limit.describe(median: 250).contains("50.0 %"))
    let free = FlowLimit(signingRate: 1_000, cores: 1, signaturesPerFlow: 0)
    #expect(free.flowsPerSecond == nil)
    #expect(free.share(of: 10) == nil)
    var result = BenchmarkResult(
      id: "x", measure: "x", unit: "flows/s", samples: [100, 200, 300], iterations: 3, target: nil)
    #expect(result.shareOfLimit == nil)
    result.limit = limit
    #expect(result.shareOfLimit == 0.4)
    let decoded = try JSONDecoder().decode(BenchmarkResult.self, from: try JSONEncoder().encode(result))
    #expect(decoded.limit == limit)
  }
}
