import Foundation

/// How `--jobs` scales (issue 13, item 5): the same generated login flows run by a child
/// `authflow run DIR --jobs 1` and `--jobs N`, alternately, and the ratio of their times.
///
/// Each child prints the run's own duration in its summary (`… in 1.23s`: from the first
/// scenario's start to the last one's end, what `--jobs` changes); the child's wall time adds the
/// process start, loading the files, the embedded mock's start (an RSA key) and its stop, which
/// `--jobs` does not touch. The ratio row is the run's durations; the wall times are the two
/// rows above it.
public struct JobsScalingMeasures: Sendable {
  public var options: BenchmarkOptions

  public init(options: BenchmarkOptions) {
    self.options = options
  }

  /// docs/design.md §7: `--jobs N` at least 1.8 times as fast as `--jobs 1` on 2 cores.
  public static let target = DesignTargets.jobsScaling

  /// The rows: wall time at `--jobs 1`, at `--jobs N`, and the ratio of the runs' own durations.
  public func all() -> [BenchmarkResult] {
    let count = options.jobsFlowCount
    let jobs = options.scalingJobs
    let oneID = "jobs_one_wall"
    let oneMeasure = "run \(count) login flows, --jobs 1 (child wall time)"
    let manyID = "jobs_many_wall"
    let manyMeasure = "run \(count) login flows, --jobs \(jobs) (child wall time)"
    let ratioID = "jobs_scaling"
    let ratioMeasure = "--jobs \(jobs) vs --jobs 1, \(count) login flows (run time ratio)"
    do {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      for index in 0..<count {
        try ScenarioCorpus.loginFlow(name: "bench jobs flow \(index)").write(
          toFile: directory.file(String(format: "flow-%05d.yaml", index)), atomically: false, encoding: .utf8)
      }
      try BenchTenant.write(into: directory.path)
      let one = child(directory: directory.path, jobs: 1)
      let many = child(directory: directory.path, jobs: jobs)
      var walls: (one: [Double], many: [Double]) = ([], [])
      var ratios: [Double] = []
      var runTimes: (one: [Double], many: [Double]) = ([], [])
      for _ in 0..<max(1, options.jobsRounds) {
        let sequential = try Self.measure(one)
        let concurrent = try Self.measure(many)
        walls.one.append(sequential.wall)
        walls.many.append(concurrent.wall)
        runTimes.one.append(sequential.run)
        runTimes.many.append(concurrent.run)
        ratios.append(concurrent.run > 0 ? sequential.run / concurrent.run : 0)
      }
      let runNote = { (times: [Double]) in
        SampleStatistics(times).map { "the run itself (its summary): median \(format($0.median)) ms" }
      }
      let wallRatio = zip(walls.one, walls.many).map { $1 > 0 ? $0 / $1 : 0 }
      return [
        BenchmarkResult(
          id: oneID, measure: oneMeasure, unit: "ms", samples: walls.one, iterations: walls.one.count * count,
          target: nil, note: runNote(runTimes.one)),
        BenchmarkResult(
          id: manyID, measure: manyMeasure, unit: "ms", samples: walls.many, iterations: walls.many.count * count,
          target: nil, note: runNote(runTimes.many)),
        BenchmarkResult(
          id: ratioID, measure: ratioMeasure, unit: "×", samples: ratios, iterations: ratios.count * count * 2,
          target: Self.target,
          note: SampleStatistics(wallRatio).map {
            "the runs' own durations; the child wall times give \(format($0.median))× (process and mock start included)"
          }),
      ]
    } catch {
      let reason = String(describing: error)
      return [
        .failed(id: oneID, measure: oneMeasure, unit: "ms", target: nil, reason: reason),
        .failed(id: manyID, measure: manyMeasure, unit: "ms", target: nil, reason: reason),
        .failed(id: ratioID, measure: ratioMeasure, unit: "×", target: Self.target, reason: reason),
      ]
    }
  }

  private func child(directory: String, jobs: Int) -> ChildProcess {
    ChildProcess(
      executable: options.executable,
      arguments: ["run", directory, "--jobs", String(jobs), "--no-progress", "--fail-on-skip"])
  }

  /// Runs one child: its wall time and the run's own duration, in milliseconds.
  static func measure(_ child: ChildProcess) throws -> (wall: Double, run: Double) {
    let outcome = try child.runSuccessfully()
    guard let run = runDuration(inSummary: outcome.standardOutputTail) else {
      throw ChildProcess.Failure(
        description: "`\(child.commandLine)` printed no run summary: \(outcome.standardOutputTail.suffix(200))")
    }
    return (outcome.wallTime.milliseconds, run)
  }

  /// The duration at the end of the console summary (`200 scenarios: 200 passed, … in 1.23s`), in
  /// milliseconds; nil when the text has no such line.
  static func runDuration(inSummary text: String) -> Double? {
    guard let line = text.split(separator: "\n").last(where: { $0.contains(" scenario") && $0.contains(" in ") }),
      let range = line.range(of: " in ", options: .backwards)
    else { return nil }
    let value = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
    if value.hasSuffix("ms"), let milliseconds = Double(value.dropLast(2)) { return milliseconds }
    if value.hasSuffix("s"), let seconds = Double(value.dropLast()) { return seconds * 1_000 }
    return nil
  }
}
