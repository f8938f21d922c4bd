import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns SIGINT/SIGTERM into task cancellation, so a run stops cleanly and still writes its
/// reports. A second Ctrl-C exits at once.
enum Interruption {
  /// Runs `body` in a task that SIGINT/SIGTERM cancel.
  static func cancellable<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) async -> Result {
    let task = Task { await body() }
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let queue = DispatchQueue(label: "authflow.signals")
    let sources = [SIGINT, SIGTERM].map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        if task.isCancelled {
          FileHandle.standardError.write(Data("\nauthflow: interrupted again, exiting now\n".utf8))
          exit(130)
        }
        FileHandle.standardError.write(
          Data("\nauthflow: interrupted; finishing cleanup and writing reports (Ctrl-C again to exit now)\n".utf8))
        task.cancel()
      }
      source.resume()
      return source
    }
    let result = await task.value
    sources.forEach { $0.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    return result
  }
}
