import Foundation

/// The rows measured in child processes of the authflow binary itself, on generated files in a
/// temporary directory: what a user waits for at the command line.
public struct ProcessMeasures: Sendable {
  public var options: BenchmarkOptions

  public init(options: BenchmarkOptions) {
    self.options = options
  }

  /// `authflow validate FILE`, one login scenario, cold process each time.
  public func validateOneFile() -> BenchmarkResult {
    let id = "validate_one_file"
    let measure = "validate 1 file, cold process"
    return measured(id: id, measure: measure, unit: "ms", target: DesignTargets.validateOneFile) { directory in
      let file = directory.file("login.yaml")
      try ScenarioCorpus.loginFlow(name: "bench validate").write(toFile: file, atomically: false, encoding: .utf8)
      let child = ChildProcess(executable: options.executable, arguments: ["validate", file])
      let samples = try (0..<options.processSamples).map { _ in try child.runSuccessfully().wallTime.milliseconds }
      return (samples, samples.count, nil)
    }
  }

  /// `authflow run FILE`: process start, embedded mock start, one login scenario, mock stop.
  public func runOneScenario() -> BenchmarkResult {
    let id = "run_one_scenario"
    let measure = "run 1 scenario, mock start included"
    return measured(id: id, measure: measure, unit: "ms", target: DesignTargets.runOneScenario) { directory in
      let file = directory.file("login.yaml")
      try ScenarioCorpus.loginFlow(name: "bench run").write(toFile: file, atomically: false, encoding: .utf8)
      let child = ChildProcess(executable: options.executable, arguments: ["run", file])
      let samples = try (0..<options.processSamples).map { _ in try child.runSuccessfully().wallTime.milliseconds }
      return (samples, samples.count, "cold process: `authflow run` of one web_auth login scenario")
    }
  }

  /// `authflow validate DIR` over `validateFileCount` generated files.
  public func validateManyFiles() -> BenchmarkResult {
    let count = options.validateFileCount
    let id = "validate_many_files"
    let measure = "validate \(count.formatted()) files"
    return measured(id: id, measure: measure, unit: "ms", target: DesignTargets.validateManyFiles) { directory in
      try ScenarioCorpus.write(count: count, into: directory.path)
      let child = ChildProcess(executable: options.executable, arguments: ["validate", directory.path])
      let samples = try (0..<options.largeSamples).map { _ in try child.runSuccessfully().wallTime.milliseconds }
      return (samples, samples.count * count, "cold process, \(ScenarioCorpus.templates.count) flows in turn")
    }
  }

  /// `authflow run DIR` over `memoryScenarioCount` scenarios: the child's own peak RSS (and,
  /// as a second row, its wall time).
  public func peakMemory() -> [BenchmarkResult] {
    peakMemory(count: options.memoryScenarioCount, samples: options.largeSamples, id: "peak_memory")
  }

  /// `authflow run DIR --jobs N` over `count` generated scenarios, `samples` times: rows of peak
  /// RSS (target ≤ 60 MB, whatever the size: memory must not grow with the run) and wall time
  /// (no target).
  public func peakMemory(count: Int, samples sampleCount: Int, id: String) -> [BenchmarkResult] {
    let measure = "peak memory, run \(count.formatted()) scenarios"
    var wallTimes: [Double] = []
    let memory = measured(id: id, measure: measure, unit: "MB", target: DesignTargets.peakMemory) { directory in
      try ScenarioCorpus.write(count: count, into: directory.path)
      try BenchTenant.write(into: directory.path)
      let child = ChildProcess(
        executable: options.executable, arguments: ["run", directory.path, "--jobs", String(options.runJobs)])
      var samples: [Double] = []
      for _ in 0..<sampleCount {
        let outcome = try child.runSuccessfully()
        samples.append(Double(outcome.maxResidentBytes) / 1_000_000)
        wallTimes.append(outcome.wallTime.milliseconds)
      }
      return (
        samples, samples.count * count,
        "maximum resident set of the child (wait4), 1 MB = 10^6 bytes; tenant: BenchTenant"
      )
    }
    guard memory.failure == nil else { return [memory] }
    let time = BenchmarkResult(
      id: id.replacingOccurrences(of: "peak_memory", with: "run_many_scenarios"),
      measure: "run \(count.formatted()) scenarios (--jobs \(options.runJobs))",
      unit: "ms", samples: wallTimes, iterations: wallTimes.count * count, target: nil,
      note: "the peak-memory run's wall time; no docs/design.md §7 target")
    return [memory, time]
  }

  /// Runs `body` in a fresh temporary directory (removed afterwards); a thrown error becomes a
  /// failed row.
  private func measured(
    id: String, measure: String, unit: String, target: BenchmarkTarget,
    _ body: (TemporaryDirectory) throws -> (samples: [Double], iterations: Int, note: String?)
  ) -> BenchmarkResult {
    do {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let (samples, iterations, note) = try body(directory)
      return BenchmarkResult(
        id: id, measure: measure, unit: unit, samples: samples, iterations: iterations, target: target, note: note)
    } catch {
      return .failed(id: id, measure: measure, unit: unit, target: target, reason: String(describing: error))
    }
  }
}

extension Duration {
  /// The duration in milliseconds, as a floating-point number.
  var milliseconds: Double { seconds * 1_000 }
}
