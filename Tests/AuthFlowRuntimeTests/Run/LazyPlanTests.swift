import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowResults
import AuthFlowScenario
import Foundation
import Testing

@testable import AuthFlowRuntime

/// `authflow run` plans from a compact index (``ScenarioSource/planned(embedded:)``): no parsed
/// tree or file text is kept per scenario, and the runner loads each instance again when it starts
/// it — matrix instances too. Asserted on what the suite and plan hold, not on memory.
@Suite struct LazyPlanTests {
  static func scenario(_ index: Int) -> String {
    """
    scenario: Lazy \(index)
    tags: [\(index % 2 == 0 ? "even" : "odd")]
    steps:
      - id: first
        wait: 1ms
      - id: second
        needs: [first]
        wait: 1ms
    """
  }

  static let matrix = """
    scenario: Matrix
    tags: [even]
    matrix:
      size: [small, medium, large]
    steps:
      - id: only
        assert:
          that: ${{ matrix.size != '' }}
    """

  static func files(count: Int) -> [String: String] {
    var files = ["m.yaml": matrix]
    for index in 0..<count { files[String(format: "s%03d.yaml", index)] = scenario(index) }
    return files
  }

  /// The lazily planned run (``ScenarioSource/planned(embedded:)``) of every instance in
  /// `directory`, on its own tenant.
  static func plan(_ directory: URL) async throws -> RunPlan {
    let suite = await PipelineStageTests.source(directory).planned(embedded: MockTenantHost())
    return try suite.plan(tenants: nil, selection: Selection()).get()
  }

  /// Runs the plan on the embedded mock and returns the one tenant's report.
  static func run(_ plan: RunPlan) async throws -> RunReport {
    let secrets = SecretRegistry()
    let bound = try await plan.bind(
      TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: "."))
    let transport = LiveTransport()
    let runs = bound.runs(
      services: RunServices(secrets: secrets, transport: transport), jobs: 4, keepsStepResults: false)
    let reports = await runs.run(plan.instances)
    await bound.stop()
    try? await transport.shutdown()
    return try #require(reports.first)
  }

  @Test func thePlannedSuiteKeepsAnIndexNotTheScenarios() async throws {
    let directory = try PipelineStageTests.directory(Self.files(count: 40))
    defer { try? FileManager.default.removeItem(at: directory) }
    let suite = await PipelineStageTests.source(directory).planned(embedded: MockTenantHost())
    #expect(suite.isValid, "\(suite.diagnostics.map(\.description))")
    #expect(suite.scenarios.isEmpty)
    #expect(suite.parsed.isEmpty)
    // No scenario's text is kept: only authflow.yaml's.
    #expect(suite.sources.keys.allSatisfy { $0.hasSuffix("authflow.yaml") })
    #expect(suite.knownTags == ["even", "odd"])
    let plan = try suite.plan(tenants: nil, selection: Selection(tags: ["even"])).get()
    #expect(plan.loadedCount == 43)
    #expect(plan.instances.count == 23)
    #expect(plan.instances.allSatisfy { $0.loaded == nil })
    #expect(
      plan.instances.prefix(3).map(\.name) == ["Matrix [size: small]", "Matrix [size: medium]", "Matrix [size: large]"])
    #expect(plan.instances.prefix(3).map(\.index) == [0, 1, 2])
  }

  @Test func theSameSelectionAndShardsAsTheEagerSuite() async throws {
    let directory = try PipelineStageTests.directory(Self.files(count: 12))
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = PipelineStageTests.source(directory)
    let lazy = await source.planned(embedded: MockTenantHost())
    let eager = await source.validated(embedded: MockTenantHost())
    for shard in 1...3 {
      let selection = Selection(skipTags: ["odd"], shard: Shard(index: shard, count: 3))
      let lazyPlan = try lazy.plan(tenants: nil, selection: selection).get()
      let eagerPlan = try eager.plan(tenants: nil, selection: selection).get()
      #expect(lazyPlan.instances.map(\.name) == eagerPlan.instances.map(\.name))
    }
  }

  /// The index is packed (one entry of a few words per instance, its texts in one array), and
  /// reads back as the eager suite's entries, field by field.
  @Test func thePackedIndexReadsBackAsTheEntriesItPacked() async throws {
    let directory = try PipelineStageTests.directory(Self.files(count: 12))
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = PipelineStageTests.source(directory)
    let lazy = await source.planned(embedded: MockTenantHost())
    let eager = await source.validated(embedded: MockTenantHost())
    #expect(lazy.planned.isPacked)
    #expect(!eager.planned.isPacked)
    let selection = Selection(skipTags: ["odd"])
    let lazyPlan = try lazy.plan(tenants: nil, selection: selection).get()
    #expect(lazyPlan.instances.isPacked)
    let eagerPlan = try eager.plan(tenants: nil, selection: selection).get()
    #expect(lazyPlan.instances.count == eagerPlan.instances.count)
    for (packed, held) in zip(lazyPlan.instances, eagerPlan.instances) {
      #expect(packed.file == held.file)
      #expect(packed.name == held.name)
      #expect(packed.index == held.index)
      #expect(packed.location == held.location)
      #expect(packed.tags == held.tags)
      #expect(packed.movesMockClock == held.movesMockClock)
    }
  }

  @Test func everyPlannedInstanceIsLoadedWhenItRunsAndReported() async throws {
    let directory = try PipelineStageTests.directory(Self.files(count: 20))
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try await Self.plan(directory)
    let report = try await Self.run(plan)
    #expect(report.scenarios.map(\.name) == plan.instances.map(\.name))
    #expect(report.scenarios.count == 23)
    #expect(report.scenarios.allSatisfy { $0.status == .passed })
    #expect(report.scenarios.last?.steps.map(\.id) == ["first", "second"])
  }

  /// The instances of one file share one parse at run time: a matrix of three rows and two
  /// plain files are read three times, however many workers load them at once; a file pushed
  /// out of the bounded cache is read again when it is needed again.
  @Test func theInstancesOfAFileShareOneParse() async throws {
    let directory = try PipelineStageTests.directory(Self.files(count: 2))
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try await Self.plan(directory)
    #expect(plan.instances.count == 5)
    let loading = InstanceLoading(functions: Pipeline.functions)
    await withTaskGroup(of: Bool.self) { group in
      for planned in Array(plan.instances) + Array(plan.instances) {
        group.addTask { (try? loading.instance(planned).get()) != nil }
      }
      for await loaded in group { #expect(loaded) }
    }
    #expect(loading.files.parses == 3)
    let one = InstanceLoading(functions: Pipeline.functions, capacity: 1)
    let files = Array(Set(plan.instances.map(\.file))).sorted()
    for file in files + files {
      let planned = try #require(plan.instances.first { $0.file == file })
      #expect((try? one.instance(planned).get()) != nil)
    }
    #expect(one.files.parses == 6)
  }

  @Test func aFileChangedAfterPlanningIsAnErrorAndTheOthersRun() async throws {
    let directory = try PipelineStageTests.directory(Self.files(count: 3))
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try await Self.plan(directory)
    try "scenario: Renamed\nsteps:\n  - wait: 1ms\n".write(
      to: directory.appendingPathComponent("s001.yaml"), atomically: true, encoding: .utf8)
    try "scenario: [".write(to: directory.appendingPathComponent("s002.yaml"), atomically: true, encoding: .utf8)
    let report = try await Self.run(plan)
    #expect(report.scenarios.map(\.status) == [.passed, .passed, .passed, .passed, .error, .error])
    let changed = try #require(report.scenarios.last?.skipReason)
    #expect(changed.hasPrefix("the scenario file changed after it was validated: "))
    #expect(report.scenarios[4].skipReason?.hasSuffix("the instance is no longer in the file") == true)
  }

  @Test func crossChecksPointIntoFilesWhoseTextIsReadForTheSnippet() async throws {
    let unknownClient = Self.scenario(0).replacingOccurrences(of: "tags:", with: "client: nobody\ntags:")
    let directory = try PipelineStageTests.directory(["a.yaml": unknownClient, "b.yaml": Self.scenario(1)])
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = PipelineStageTests.source(directory)
    let lazy = await source.planned(embedded: MockTenantHost())
    let eager = await source.validated(embedded: MockTenantHost())
    #expect(!lazy.isValid)
    #expect(lazy.diagnostics.map(\.description) == eager.diagnostics.map(\.description))
    let file = directory.appendingPathComponent("a.yaml").path
    #expect(lazy.sources[file] == unknownClient)
    #expect(lazy.sources[directory.appendingPathComponent("b.yaml").path] == nil)
  }
}
