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

  @Test func loginFlowRowsProduceOneSamplePerRound() async {
    var options = BenchmarkOptions.quick(executable: "/bin/true")
    options.flowIterations = 4
    options.flowRounds = 2
    options.workers = 2
    let results = await LoginFlowMeasures(options: options).all()
    #expect(results.map(\.id) == ["login_flows_sequential", "login_flows_concurrent"])
    for result in results {
      #expect(result.failure == nil)
      #expect(result.samples.count == 2)
    }
  }
}
