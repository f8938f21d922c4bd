import AuthFlowHTTP
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Debian's `chromium`, headless, for tests that check a page in a real browser: the DOM after
/// its scripts ran, what it wrote to the console, and a screenshot.
///
/// Located as the runner locates it (`ChromiumHost.locateExecutable`: `AUTHFLOW_CHROMIUM`, else
/// `chromium`, `chromium-browser`, `google-chrome` or `google-chrome-stable` on `PATH`). Each run
/// gets its own profile directory (other processes may use chromium at the same time), is bounded
/// by a deadline and is killed by its PID when it outlives it.
enum HeadlessChromium {
  /// The browser, or nil when none is installed (the reason printed, loudly).
  static let path: String? = {
    do {
      return try ChromiumHost.locateExecutable(environment: ProcessInfo.processInfo.environment)
    } catch {
      FileHandle.standardError.write(Data("\(skipNotice): \(error)\n".utf8))
      return nil
    }
  }()

  /// What a test that needs the browser prints (and gives as its skip comment) when there is none.
  static let skipNotice =
    "SKIPPED: the HTML report was NOT checked in a real browser: chromium is not installed (apt-get install chromium, or set AUTHFLOW_CHROMIUM to a Chromium or Chrome binary)"

  struct Outcome: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The messages the page wrote to the console (`console.*`, uncaught errors, CSP violations),
    /// which chromium logs as `…:CONSOLE:N] "message", source: …`.
    var consoleMessages: [String] {
      standardError.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Loads `url` and prints the DOM after its scripts ran (`--dump-dom`).
  static func dumpDOM(_ url: URL, limit: Duration = .seconds(90)) throws -> Outcome {
    try run(["--dump-dom", url.absoluteString], limit: limit)
  }

  /// Loads `url` in a `width`×`height` window and writes a PNG of it to `output`.
  static func screenshot(
    _ url: URL, to output: String, width: Int, height: Int, limit: Duration = .seconds(90)
  ) throws -> Outcome {
    try run(["--screenshot=\(output)", "--window-size=\(width),\(height)", url.absoluteString], limit: limit)
  }

  static func run(_ arguments: [String], limit: Duration) throws -> Outcome {
    guard let path else { throw Failure(description: skipNotice) }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "authflow-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorURL = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
        "--disable-extensions", "--disable-background-networking", "--enable-logging=stderr", "--v=0",
        "--user-data-dir=\(scratch.appendingPathComponent("profile").path)",
      ] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorURL)
    try process.run()
    let deadline = ContinuousClock.now + limit
    while process.isRunning, ContinuousClock.now < deadline { usleep(50_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw Failure(description: "chromium did not finish within \(limit); killed (pid \(process.processIdentifier))")
    }
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus,
      standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
      standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
  }

  /// The width and height of a PNG (its IHDR chunk), or nil when `data` is not a PNG.
  static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
      bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
    else { return nil }
    func big(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 << 8 | Int($1) } }
    return (big(16..<20), big(20..<24))
  }
}
