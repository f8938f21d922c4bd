import Foundation

/// Every docs/design.md §7 measure, in an order that keeps them apart: the child-process rows first
/// (nothing else running), then the RSA signing rate and the in-process login flows on the
/// embedded mock, each shown as a share of that rate.
public struct BenchmarkSuite: Sendable {
  public var options: BenchmarkOptions
  public var quick: Bool

  public init(options: BenchmarkOptions, quick: Bool) {
    self.options = options
    self.quick = quick
  }

  /// Runs every measure; `progress` is told the name of each before it starts.
  public func run(progress: @Sendable (String) -> Void = { _ in }) async -> BenchmarkReport {
    let startedAt = Date()
    let processes = ProcessMeasures(options: options)
    var results: [BenchmarkResult] = []
    if options.groups.contains(.process) {
      progress("validate 1 file (cold process) ×\(options.processSamples)")
      results.append(processes.validateOneFile())
      progress("run 1 scenario (cold process, mock start) ×\(options.processSamples)")
      results.append(processes.runOneScenario())
      progress("validate \(options.validateFileCount.formatted()) files ×\(options.largeSamples)")
      results.append(processes.validateManyFiles())
      progress("run \(options.memoryScenarioCount.formatted()) scenarios (peak memory) ×\(options.largeSamples)")
      results += processes.peakMemory()
      // The larger runs, once each: peak memory must not grow with the run (--quick skips 100,000).
      for count in options.largerMemoryScenarioCounts {
        progress("run \(count.formatted()) scenarios (peak memory, flat at any size) ×1")
        results += processes.peakMemory(count: count, samples: 1, id: "peak_memory_\(count)")
      }
    }
    if options.groups.contains(.login) {
      progress(
        "RSA signing (1 core, all cores); login flows with an audience one at a time and \(options.workers) concurrent, "
          + "without one at a time (\(options.flowDuration) each at most)")
      results += await LoginFlowMeasures(options: options).all()
    }
    if options.groups.contains(.jobs) {
      progress(
        "run \(options.jobsFlowCount) login flows with --jobs 1 and --jobs \(options.scalingJobs) ×\(options.jobsRounds)"
      )
      results += JobsScalingMeasures(options: options).all()
    }
    if options.groups.contains(.pacing) {
      progress("rate limit: \(options.pacingRequests) requests from 4 jobs, unpaced and paced ×\(options.largeSamples)")
      results += await PacingMeasures(options: options).all()
    }
    if options.groups.contains(.soak) {
      results += await SoakMeasures(options: options).all(progress: progress)
    }
    return BenchmarkReport(startedAt: startedAt, quick: quick, results: results)
  }
}
