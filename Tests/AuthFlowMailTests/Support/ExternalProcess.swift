import Foundation

/// A child process run to completion within a time bound: Python's smtplib, swaks, openssl.
struct ExternalProcess {
  struct Result: Sendable {
    let status: Int32
    let output: String
    let error: String
  }

  /// Runs `arguments` (found on `PATH`), killing it after `timeout`.
  static func run(_ arguments: [String], timeout: Duration = .seconds(10)) async throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    let finished = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in finished.continuation.finish() }
    try process.run()
    let killer = Task {
      try await Task.sleep(for: timeout)
      process.terminate()
    }
    for await _ in finished.stream {}
    killer.cancel()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    return Result(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
  }

  /// Whether `name` is an executable on `PATH`.
  static func isInstalled(_ name: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
  }
}
