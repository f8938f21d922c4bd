public import AuthFlowCore
public import AuthFlowResults
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the progress line is drawn: standard error on a terminal (``StandardStreams``), or a
/// fake in tests.
public protocol StatusTerminal: Sendable {
  /// The terminal's width in columns now (it may be resized during a run).
  var columns: Int { get }
  /// True while the line last drawn is on screen (other output erases it).
  var isShowing: Bool { get }
  /// How many other writes went to the screen so far (any count that grows with them).
  var otherOutputCount: Int { get }
  /// Writes `bytes`, which redraw the line in place; false when they cannot be written.
  func draw(_ bytes: String) -> Bool
  /// Erases the line, if it is on screen, and draws no more.
  func end()
}

/// The live progress line of `authflow run` on a terminal: done/total, failures so far and the
/// scenarios running now, redrawn in place (`\r`, the line, erase to its end) at most once per
/// ``interval`` — updates in between are drawn by the next ``tick()`` — and erased by ``stop()``
/// before the console prints its summary. Other output erases it first (``StandardStreams``), and
/// it is drawn again once other output has been quiet for ``settle``: output that reaches the
/// screen through another process (`authflow run | tee log`) lands after the erase, not on the
/// end of a redrawn line.
public final class ProgressDisplay: RunObserver, Sendable {
  /// The shortest time between two redraws: at most four a second.
  public static let defaultInterval: Duration = .milliseconds(250)
  /// How long other output must have been quiet before the line is drawn again.
  public static let settle: Duration = .milliseconds(100)
  /// Widths outside this range (a terminal reporting 0, or absurd sizes) are clamped into it.
  static let widthRange = 20...1000

  private struct State {
    var line: ProgressLine
    var lastDrawn: String?
    var lastDrawAt: Duration?
    var stopped = false
    /// The other-output count last seen, and when it was seen to change.
    var otherOutputs = 0
    var otherOutputAt: Duration?
  }

  private let state: Mutex<State>
  private let terminal: any StatusTerminal
  private let clock: @Sendable () -> Duration
  private let sanitize: @Sendable (String) -> String
  public let interval: Duration

  /// `clock` is the time since any fixed origin; `sanitize` masks secrets in names and makes
  /// control characters visible.
  public init(
    total: Int, terminal: any StatusTerminal, interval: Duration = defaultInterval,
    clock: @escaping @Sendable () -> Duration, sanitize: @escaping @Sendable (String) -> String
  ) {
    self.state = Mutex(State(line: ProgressLine(total: total)))
    self.terminal = terminal
    self.interval = interval
    self.clock = clock
    self.sanitize = sanitize
  }

  /// The display on standard error, names masked by `secrets`, timed by the continuous clock.
  public static func live(total: Int, secrets: SecretRegistry) -> ProgressDisplay {
    let origin = ContinuousClock.now
    return ProgressDisplay(
      total: total, terminal: StandardErrorTerminal(), clock: { ContinuousClock.now - origin },
      sanitize: sanitizer(secrets))
  }

  /// Names as the console prints them: secrets masked, control characters shown as escapes.
  static func sanitizer(_ secrets: SecretRegistry) -> @Sendable (String) -> String {
    { secrets.scrub($0).terminalSafe }
  }

  public func scenarioStarted(name: String, file: String) async {
    update { $0.started(name: name, file: file) }
  }

  public func stepFinished(_ step: StepReport, scenario: String) async {}

  public func scenarioFinished(_ report: ScenarioReport) async {
    update { $0.finished(name: report.name, file: report.file, status: report.status) }
  }

  /// Draws the line when it changed or was erased by other output, the last draw is at least
  /// ``interval`` ago, and the last other output at least ``settle`` ago. Called by every update
  /// and by a timer.
  public func tick() {
    let now = clock()
    let columns = terminal.columns
    let otherOutputs = terminal.otherOutputCount
    state.withLock { state in
      guard !state.stopped else { return }
      if otherOutputs != state.otherOutputs {
        state.otherOutputs = otherOutputs
        state.otherOutputAt = now
      }
      if let last = state.otherOutputAt, now - last < Self.settle { return }
      if let last = state.lastDrawAt, now - last < interval { return }
      let text = state.line.text(
        width: min(max(columns, Self.widthRange.lowerBound), Self.widthRange.upperBound), sanitize: sanitize)
      guard text != state.lastDrawn || !terminal.isShowing else { return }
      guard terminal.draw("\r" + text + "\u{1B}[K") else {
        state.stopped = true
        return
      }
      state.lastDrawn = text
      state.lastDrawAt = now
    }
  }

  /// Erases the line and draws no more (before the summary; idempotent).
  public func stop() {
    state.withLock { state in
      guard !state.stopped else { return }
      state.stopped = true
    }
    terminal.end()
  }

  /// Redraws every ``interval`` until the task is cancelled (then stops the display).
  public func run() async {
    while !Task.isCancelled {
      try? await Task.sleep(for: interval)
      tick()
    }
    stop()
  }

  private func update(_ change: (inout ProgressLine) -> Void) {
    let stopped = state.withLock { state in
      change(&state.line)
      return state.stopped
    }
    if !stopped { tick() }
  }
}

/// Standard error through ``StandardStreams``, whose other writes erase the line first.
struct StandardErrorTerminal: StatusTerminal {
  init() { StandardStreams.beginStatus() }

  var columns: Int {
    var size = winsize()
    if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 80
  }

  var isShowing: Bool { StandardStreams.isStatusVisible }

  var otherOutputCount: Int { StandardStreams.otherOutputCount }

  func draw(_ bytes: String) -> Bool { StandardStreams.status(bytes) }

  func end() { StandardStreams.endStatus() }
}
