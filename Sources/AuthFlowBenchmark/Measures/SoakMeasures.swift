import AuthFlowCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `authflow bench --only soak`: `authflow monitor` as a child process, watching two login flows on
/// its embedded mock every second for ``BenchmarkOptions/soakDuration`` (an hour by default), its
/// resident memory and open file descriptors read from `/proc` at even steps. Memory is flat when
/// the peak of the last tenth of the samples is within 10 % (and 4 MB) of the peak of the first
/// tenth after a warm-up; descriptors when they vary by at most 10.
struct SoakMeasures {
  let options: BenchmarkOptions

  static let scenarios = [
    "login.yaml": """
    scenario: Sign in and renew
    client: native
    vars:
      user: ${{ tenant.users.alice }}
    steps:
      - id: login
        web_auth:
          scope: openid profile email offline_access
          login: { email: "${{ vars.user.email }}", password: "${{ vars.user.password }}" }
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
      - id: userinfo
        userinfo: { access_token: "${{ steps.renew.access_token }}" }
    """,
    "password.yaml": """
    scenario: Password grant
    client: native
    vars:
      user: ${{ tenant.users.alice }}
    steps:
      - id: login
        login: { username: "${{ vars.user.email }}", password: "${{ vars.user.password }}", scope: openid }
        expect: { id_token.claims.email: "${{ vars.user.email }}" }
    """,
  ]

  func all(progress: @Sendable (String) -> Void) async -> [BenchmarkResult] {
    do {
      return try await measure(progress: progress)
    } catch {
      return [
        .failed(
          id: "monitor_soak_rss", measure: "authflow monitor, resident memory over the soak", unit: "MB",
          target: nil, reason: "\(error)")
      ]
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private func measure(progress: @Sendable (String) -> Void) async throws -> [BenchmarkResult] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (name, text) in Self.scenarios {
      try text.write(toFile: directory.file(name), atomically: true, encoding: .utf8)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: options.executable)
    process.arguments = [
      "monitor", directory.path, "--interval", "1s", "--jitter", "0", "--concurrency", "2", "--listen", "127.0.0.1:0",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      if process.isRunning {
        process.terminate()
        process.waitUntilExit()
      }
    }
    // The first line is the URL it serves.
    var firstLine = Data()
    while !firstLine.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw Failure(description: "authflow monitor exited before it served") }
      firstLine.append(chunk)
    }
    let url = String(decoding: firstLine.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    let pid = process.processIdentifier
    let total = options.soakDuration
    let step = max(.seconds(1), total / 60)
    progress(
      "authflow monitor for \(DurationText.describe(total)), memory and descriptors every \(DurationText.describe(step))"
    )
    // A warm-up of a tenth (at least 10 s): the allocator's arenas and the caches fill first.
    try await Task.sleep(for: max(.seconds(10), total / 10))
    var rss: [Double] = []
    var descriptors: [Double] = []
    var threads: [Double] = []
    let runsBefore = try await runs(url)
    let clock = ContinuousClock()
    let end = clock.now + total
    while clock.now < end {
      guard process.isRunning, let sample = Self.sample(pid) else {
        throw Failure(description: "authflow monitor exited during the soak")
      }
      rss.append(Double(sample.rss) / 1_000_000)
      descriptors.append(Double(sample.descriptors))
      threads.append(Double(sample.threads))
      try await Task.sleep(for: step)
    }
    let runs = try await runs(url) - runsBefore
    process.terminate()
    process.waitUntilExit()
    let tenth = max(1, rss.count / 10)
    let first = rss.prefix(tenth).max() ?? 0
    let last = rss.suffix(tenth).max() ?? 0
    let growth = first > 0 ? (last - first) / first * 100 : 0
    let flat = last <= first * 1.10 + 4
    let steady = (descriptors.max() ?? 0) - (descriptors.min() ?? 0) <= 10
    let note =
      "\(runs) scenario runs in \(DurationText.describe(total)); peak of the first tenth \(String(format: "%.1f", first)) MB, "
      + "of the last \(String(format: "%.1f", last)) MB (\(String(format: "%+.1f", growth)) %)"
    var memory = BenchmarkResult(
      id: "monitor_soak_rss", measure: "authflow monitor, resident memory over the soak", unit: "MB", samples: rss,
      iterations: runs, target: nil, note: note)
    if !flat { memory.failure = "memory grew: " + note }
    var files = BenchmarkResult(
      id: "monitor_soak_fds", measure: "authflow monitor, open file descriptors over the soak", unit: "fds",
      samples: descriptors, iterations: runs, target: nil,
      note: "from \(Int(descriptors.min() ?? 0)) to \(Int(descriptors.max() ?? 0))")
    if !steady {
      files.failure = "file descriptors grew from \(Int(descriptors.min() ?? 0)) to \(Int(descriptors.max() ?? 0))"
    }
    var workers = BenchmarkResult(
      id: "monitor_soak_threads", measure: "authflow monitor, threads over the soak", unit: "threads",
      samples: threads, iterations: runs, target: nil,
      note: "from \(Int(threads.min() ?? 0)) to \(Int(threads.max() ?? 0))")
    if (threads.max() ?? 0) - (threads.min() ?? 0) > 4 {
      workers.failure = "threads grew from \(Int(threads.min() ?? 0)) to \(Int(threads.max() ?? 0))"
    }
    return [memory, files, workers]
  }

  /// Resident bytes, open descriptors and threads of `pid`, from `/proc`. (Swift counts no
  /// tasks; the threads — the cooperative pool, the event loops — stand for them.)
  static func sample(_ pid: Int32) -> (rss: Int, descriptors: Int, threads: Int)? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let kilobytes = field("VmRSS:", in: status), let threads = field("Threads:", in: status),
      let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
    else { return nil }
    return (kilobytes * 1024, descriptors.count, threads)
  }

  /// The number after `name` on its line of `/proc/PID/status`.
  static func field(_ name: String, in status: String) -> Int? {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
  }

  /// The runs the monitor has counted, from its `/metrics`.
  private func runs(_ url: String) async throws -> Int {
    guard let endpoint = URL(string: url + "metrics") else { throw Failure(description: "no metrics URL") }
    let (data, _) = try await URLSession.shared.data(from: endpoint)
    var total = 0.0
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
    where line.hasPrefix("authflow_runs_total{") {
      total += Double(line.split(separator: " ").last ?? "") ?? 0
    }
    return Int(total)
  }
}
