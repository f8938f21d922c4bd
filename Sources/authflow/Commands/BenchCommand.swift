import ArgumentParser
import AuthFlowBenchmark
import AuthFlowCore
import Foundation

/// `authflow bench`: measures every docs/design.md §7 speed target and prints a table of medians.
struct BenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure the docs/design.md §7 targets (cold start, mock start, login flows, 10,000 files, memory).",
    discussion: """
      Child-process rows run this same binary on generated files in a temporary directory; the \
      login-flow rows drive web_auth against the embedded mock on 127.0.0.1. Quote medians: the \
      machine may be shared. Exits 1 when a measure could not be taken, 0 otherwise (a missed \
      target is a figure, not an error).
      """)

  @Flag(name: .long, help: "A short run: fewer samples and rounds, 2 s per login-flow row.")
  var quick = false

  @Option(name: .long, help: "Write the figures (every sample) as JSON to FILE.")
  var json: String?

  @Option(name: .long, help: "Seconds each login-flow row may take at most (default 10; 2 with --quick).")
  var duration: Double?

  @Option(name: .long, help: "Flows each login-flow row runs at most (default 20000; 2000 with --quick).")
  var iterations: Int?

  @Option(name: .long, help: "Concurrent workers of the concurrent login-flow row.")
  var workers: Int = 8

  @Option(name: .long, help: "Child processes per cold-process row (default 20; 5 with --quick).")
  var samples: Int?

  @Option(
    name: .long,
    help: "Measure only these groups of rows: process, login, jobs, pacing, soak (default: all but soak).")
  var only: [String] = []

  @Option(
    name: .customLong("soak-duration"),
    help: "How long --only soak watches authflow monitor after its warm-up, 10s–24h (default 1h).")
  var soakDuration = "1h"

  @Option(
    name: .customLong("write-corpus"),
    help: "Write the generated scenarios (--corpus-size of them) and the bench tenant into DIR and exit.")
  var writeCorpus: String?

  @Option(name: .customLong("corpus-size"), help: "How many files --write-corpus writes.")
  var corpusSize: Int = 1_000

  func validate() throws {
    if let duration, !(duration > 0 && duration <= InputLimits.benchDuration.seconds) {
      throw ValidationError(
        "--duration must be more than 0 and at most \(Int(InputLimits.benchDuration.seconds)) seconds")
    }
    if let iterations { try FlagRange.check("--iterations", iterations, in: InputLimits.benchCount) }
    if let samples { try FlagRange.check("--samples", samples, in: InputLimits.benchSamples) }
    try FlagRange.check("--workers", workers, in: InputLimits.benchWorkers)
    try FlagRange.check("--corpus-size", corpusSize, in: InputLimits.benchCount)
    _ = try groups()
  }

  /// The groups `--only` names (comma-separated or repeated); every group without it.
  func groups() throws -> Set<BenchmarkGroup> {
    let names = only.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    guard !names.isEmpty else { return BenchmarkGroup.defaults }
    return Set(
      try names.map { name in
        guard let group = BenchmarkGroup(rawValue: name) else {
          let known = BenchmarkGroup.allCases.map(\.rawValue).joined(separator: ", ")
          throw ValidationError("--only: unknown group '\(name)' (known: \(known))")
        }
        return group
      })
  }

  func run() async throws {
    if let writeCorpus {
      try FileManager.default.createDirectory(atPath: writeCorpus, withIntermediateDirectories: true)
      try ScenarioCorpus.write(count: corpusSize, into: writeCorpus)
      try BenchTenant.write(into: writeCorpus)
      Console.out("wrote \(corpusSize) scenario files, authflow.yaml and tenants/bench.yaml into \(writeCorpus)")
      return
    }
    let executable = Self.executablePath()
    var options = quick ? BenchmarkOptions.quick(executable: executable) : BenchmarkOptions(executable: executable)
    if let duration { options.flowDuration = .milliseconds(Int(duration * 1_000)) }
    if let iterations { options.flowIterations = iterations }
    if let samples { options.processSamples = samples }
    options.workers = workers
    options.groups = try groups()
    options.soakDuration = try FlagRange.duration("--soak-duration", soakDuration, in: InputLimits.soakDuration)
    if BuildConfiguration.current == .debug {
      Console.error("warning: debug build; figures will be far from release speed")
    }

    let report = await BenchmarkSuite(options: options, quick: quick).run { step in
      Console.error("measuring: \(step)")
    }
    Console.out(BenchmarkTable(report).render())
    if let json {
      do {
        try report.jsonData().write(to: URL(fileURLWithPath: json))
      } catch {
        Console.error("error: cannot write \(json): \(error.localizedDescription)")
        throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
      }
    }
    if report.results.contains(where: { $0.verdict == .error }) { throw ExitCode(1) }
  }

  /// This binary, as an absolute path (the cold-process rows run it).
  static func executablePath() -> String {
    if let path = Bundle.main.executablePath { return path }
    let argument = CommandLine.arguments.first ?? "authflow"
    guard !argument.hasPrefix("/") else { return argument }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(argument).path
  }
}
