import Foundation
import Testing

@testable import AuthFlowBenchmark

@Suite("--jobs scaling rows")
struct JobsScalingMeasuresTests {
  @Test("The run's duration is read from the console summary, in milliseconds")
  func readsTheSummary() {
    let output = """
      ✓ bench jobs flow 198  9ms
      ✓ bench jobs flow 199  8ms

      200 scenarios: 200 passed, 0 failed, 0 errors, 0 skipped in 1.23s

      """
    #expect(JobsScalingMeasures.runDuration(inSummary: output) == 1_230)
    #expect(JobsScalingMeasures.runDuration(inSummary: "1 scenario: 1 passed in 850ms\n") == 850)
    #expect(JobsScalingMeasures.runDuration(inSummary: "✓ a scenario in the middle  9ms\n") == nil)
    #expect(JobsScalingMeasures.runDuration(inSummary: "") == nil)
  }

  @Test("Two child runs of a few generated login flows: rows with samples, and a ratio with the target")
  func measuresTinyRuns() throws {
    let executable = try builtAuthflow()
    var options = BenchmarkOptions.quick(executable: executable)
    options.jobsFlowCount = 4
    options.scalingJobs = 2
    options.jobsRounds = 1
    let rows = JobsScalingMeasures(options: options).all()
    #expect(rows.map(\.id) == ["jobs_one_wall", "jobs_many_wall", "jobs_scaling"])
    for row in rows {
      #expect(row.failure == nil, "\(row.failure ?? "")")
      #expect(row.samples.count == 1)
      #expect(row.samples.allSatisfy { $0 > 0 })
    }
    #expect(rows.last?.target == JobsScalingMeasures.target)
  }
}

/// `AUTHFLOW_BINARY`, else the `authflow` that `swift test` built beside the test bundle.
func builtAuthflow() throws -> String {
  struct NotBuilt: Error, CustomStringConvertible {
    var description = "no built authflow beside the tests (run `swift build`, or set AUTHFLOW_BINARY)"
  }
  if let path = ProcessInfo.processInfo.environment["AUTHFLOW_BINARY"] { return path }
  let candidates =
    Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("authflow") }
    + CommandLine.arguments.prefix(1).map {
      URL(fileURLWithPath: $0).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("authflow")
    }
  var isDirectory: ObjCBool = false
  guard
    let found = candidates.first(where: {
      FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        && FileManager.default.isExecutableFile(atPath: $0.path)
    })
  else { throw NotBuilt() }
  return found.path
}
