import AuthFlowCore
import AuthFlowResults
import Testing

@testable import AuthFlowReporting

@Suite struct ReporterRegistryTests {
  @Test func isSortedWithUniqueNames() {
    let names = ReporterRegistry.builtIn.names
    #expect(names == names.sorted())
    #expect(Set(names).count == names.count)
    #expect(names == ["console", "github", "html", "json", "junit"])
  }

  @Test(arguments: ReporterRegistry.builtIn.names)
  func eachExampleSelectsItsReporter(name: String) throws {
    let description = try #require(ReporterRegistry.builtIn.reporter(named: name)).description
    let spec = try ReporterSpec.parse(description.example)
    #expect(spec.name == name)
    #expect((spec.path != nil) == description.takesFile)
    #expect(!description.summary.isEmpty)
  }

  @Test func buildsTheReportersOfTheArguments() async throws {
    let output = CapturedOutput()
    let group = try ReporterRegistry.builtIn.make(
      arguments: ["json:r.json", "junit:r.xml"], context: ReportFixtures.context(output))
    #expect(group.reporters.map { type(of: $0).description.name } == ["json", "junit"])
    #expect(group.observer == nil)
    try await group.finish(ReportFixtures.run)
    #expect(await output.files.keys.sorted() == ["r.json", "r.xml"])
    #expect(await output.console.isEmpty)
  }

  @Test func consoleIsTheLiveObserver() throws {
    let group = try ReporterRegistry.builtIn.make(arguments: [], context: ReportFixtures.context(CapturedOutput()))
    #expect(group.reporters.count == 1)
    #expect(group.observer != nil)
  }

  /// Only the JSON report writes step results, so only with it does the runner keep them.
  @Test func onlyTheJSONReporterNeedsStepResults() throws {
    let context = ReportFixtures.context(CapturedOutput())
    let console = try ReporterRegistry.builtIn.make(arguments: ["console", "junit:r.xml", "github"], context: context)
    #expect(!console.needsStepResults)
    let json = try ReporterRegistry.builtIn.make(arguments: ["console", "json:r.json"], context: context)
    #expect(json.needsStepResults)
  }

  /// Every reporter still writes when another cannot.
  @Test func oneFailingReporterDoesNotStopTheOthers() async {
    let output = CapturedOutput()
    let context = ReportFixtures.context(output)
    let group = ReporterGroup([
      FailingReporter(spec: ReporterSpec(name: "failing"), context: context),
      JSONReporter(spec: ReporterSpec(name: "json", path: "r.json"), context: context),
    ])
    await #expect {
      try await group.finish(ReportFixtures.run)
    } throws: { error in
      "\(error)" == "reporter 'failing' could not write its output: disk full"
    }
    #expect(await output.files["r.json"] != nil)
  }
}

private struct FailingReporter: Reporter {
  struct Failure: Error, CustomStringConvertible {
    var description: String { "disk full" }
  }

  static let description = ReporterDescription(name: "failing", takesFile: false, summary: "fails", example: "failing")
  init(spec: ReporterSpec, context: ReporterContext) {}
  func finish(_ report: RunReport) async throws { throw Failure() }
}
