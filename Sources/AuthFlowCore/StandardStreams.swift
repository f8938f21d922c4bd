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
///
/// A *status line* (the progress of `authflow run` on a terminal) lives on standard error between
/// ``beginStatus()`` and ``endStatus()``: ``status(_:)`` draws it over the current line, and every
/// other write to standard error — and to standard output when that is a terminal too — first
/// erases it, under one lock, so that no output ever lands on the end of a status line.
public enum StandardStreams {
  private struct State: Sendable {
    var outputClosed = false
    var handler: (@Sendable () -> Void)?
  }

  /// The status line, if any: whether one may be drawn, whether one is on screen, and whether
  /// standard output goes to a terminal (the same screen, so its writes erase the line too).
  private struct StatusState: Sendable {
    var active = false
    var visible = false
    var outputIsTerminal = false
    /// How many other writes there were since the status line began.
    var otherOutputs = 0

    /// Erases the line if it is on screen.
    mutating func erase() {
      guard visible else { return }
      visible = false
      _ = StandardStreams.writeAll(StandardStreams.eraseLine, to: STDERR_FILENO)
    }
  }

  /// The process-wide state: a closed output stays closed for every writer.
  private final class Shared: Sendable {
    let state = Mutex(State())
    let status = Mutex(StatusState())
  }

  /// Carriage return, then erase to the end of the line (ANSI `EL`): what erases a status line.
  public static let eraseLine = "\r\u{1B}[K"

  private static let shared = Shared()

  /// Writes `text` to standard output; false (and the closed-output handler called, once) when
  /// it cannot be written because the reader is gone or the descriptor is closed.
  @discardableResult
  public static func output(_ text: String) -> Bool {
    guard !isOutputClosed else { return false }
    // A terminal: erased and written under the lock. Anything else may still reach the screen
    // (`| tee log`): erased first, written outside the lock (a pipe may block), and the status
    // line waits until other output has been quiet a while (`ProgressDisplay`).
    let written =
      shared.status.withLock { status -> Bool? in
        guard status.active else { return nil }
        status.otherOutputs &+= 1
        status.erase()
        return status.outputIsTerminal ? writeAll(text, to: STDOUT_FILENO) : nil
      } ?? writeAll(text, to: STDOUT_FILENO)
    if written { return true }
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
    let written = shared.status.withLock { status -> Bool in
      guard status.active else { return false }
      status.otherOutputs &+= 1
      status.erase()
      _ = writeAll(text, to: STDERR_FILENO)
      return true
    }
    if !written { _ = writeAll(text, to: STDERR_FILENO) }
  }

  /// Lets ``status(_:)`` draw a status line on standard error (the caller checked that it is a
  /// terminal) until ``endStatus()``.
  public static func beginStatus() {
    let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    shared.status.withLock { status in
      status.active = true
      status.outputIsTerminal = outputIsTerminal
      status.otherOutputs = 0
    }
  }

  /// Draws `line` — complete terminal bytes that end on the status line, no newline (see
  /// `ProgressLine`) — on standard error. False when no status line may be drawn (before
  /// ``beginStatus()``, after ``endStatus()``) or standard error cannot be written: a status
  /// line that fails once is ended.
  @discardableResult
  public static func status(_ line: String) -> Bool {
    shared.status.withLock { status in
      guard status.active else { return false }
      guard writeAll(line, to: STDERR_FILENO) else {
        status.active = false
        status.visible = false
        return false
      }
      status.visible = true
      return true
    }
  }

  /// True while a status line is on screen (no output has erased it since it was drawn).
  public static var isStatusVisible: Bool { shared.status.withLock { $0.visible } }

  /// How many writes other than the status line's there were since ``beginStatus()``: a status
  /// line waits until this stops changing.
  public static var otherOutputCount: Int { shared.status.withLock { $0.otherOutputs } }

  /// Erases the status line, if one is on screen, and draws none until the next ``beginStatus()``.
  public static func endStatus() {
    shared.status.withLock { status in
      status.erase()
      status.active = false
    }
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
