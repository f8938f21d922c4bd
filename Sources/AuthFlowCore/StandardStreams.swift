import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output and standard error written with `write(2)`, never trapping.
///
/// `FileHandle.write(_:)` ends in a `try!`: when the reader of a pipe goes away
/// (`authflow run | head -1`), the next write fails with `EPIPE` and the process dies with a
/// backtrace. Here a failed write to standard output marks it closed (later writes are dropped)
/// and calls the handler installed with ``onClosedOutput(_:)`` once — the CLI stops the run there,
/// as after Ctrl-C, and still writes its file reports. `SIGPIPE` must be ignored for writes to
/// return `EPIPE` (the CLI does it first thing).
public enum StandardStreams {
  private struct State: Sendable {
    var outputClosed = false
    var handler: (@Sendable () -> Void)?
  }

  /// The process-wide state: a closed output stays closed for every writer.
  private final class Shared: Sendable {
    let state = Mutex(State())
  }

  private static let shared = Shared()

  /// Writes `text` to standard output; false (and the closed-output handler called, once) when
  /// it cannot be written because the reader is gone or the descriptor is closed.
  @discardableResult
  public static func output(_ text: String) -> Bool {
    guard !isOutputClosed else { return false }
    if writeAll(text, to: STDOUT_FILENO) { return true }
    let handler = shared.state.withLock { state -> (@Sendable () -> Void)? in
      guard !state.outputClosed else { return nil }
      state.outputClosed = true
      return state.handler
    }
    handler?()
    return false
  }

  /// Writes `text` to standard error; a closed standard error is ignored.
  public static func error(_ text: String) {
    _ = writeAll(text, to: STDERR_FILENO)
  }

  /// True once a write to standard output failed.
  public static var isOutputClosed: Bool { shared.state.withLock { $0.outputClosed } }

  /// Installs what to do the first time standard output turns out closed (replacing any handler).
  public static func onClosedOutput(_ handler: (@Sendable () -> Void)?) {
    shared.state.withLock { $0.handler = handler }
  }

  /// `write(2)` until everything is written, retrying on `EINTR`; false on any other error.
  static func writeAll(_ text: String, to descriptor: Int32) -> Bool {
    var text = text
    return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) } == nil
  }

  /// `write(2)` until every byte is written, retrying on `EINTR`: nil, or the `errno` of the
  /// write that failed. Shared by the console and the report files.
  public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard var pointer = buffer.baseAddress else { return nil }
    var remaining = buffer.count
    while remaining > 0 {
      let written = write(descriptor, pointer, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      remaining -= written
      pointer += written
    }
    return nil
  }
}
