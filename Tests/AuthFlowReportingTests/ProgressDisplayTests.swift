import AuthFlowCore
import AuthFlowResults
import Synchronization
import Testing

@testable import AuthFlowReporting

/// The progress line driven with a fake terminal (width, whether other output erased the line)
/// and a fake clock: the exact bytes it writes.
@Suite struct ProgressDisplayTests {
  /// Records every byte written; `output(_:)` stands for other output, which erases the line first.
  final class FakeTerminal: StatusTerminal {
    private struct State {
      var bytes = ""
      var showing = false
      var columns: Int
      var fails = false
      var outputs = 0
    }

    private let state: Mutex<State>

    init(columns: Int) { state = Mutex(State(columns: columns)) }

    var columns: Int { state.withLock { $0.columns } }
    var isShowing: Bool { state.withLock { $0.showing } }
    var otherOutputCount: Int { state.withLock { $0.outputs } }
    var bytes: String { state.withLock { $0.bytes } }

    func resize(_ columns: Int) { state.withLock { $0.columns = columns } }
    func failWrites(_ fails: Bool = true) { state.withLock { $0.fails = fails } }

    /// Other output on the same terminal: it erases the line first (``StandardStreams``).
    func output(_ text: String) {
      state.withLock { state in
        if state.showing { state.bytes += StandardStreams.eraseLine }
        state.showing = false
        state.outputs += 1
        state.bytes += text
      }
    }

    func draw(_ bytes: String) -> Bool {
      state.withLock { state in
        guard !state.fails else { return false }
        state.bytes += bytes
        state.showing = true
        return true
      }
    }

    func end() {
      state.withLock { state in
        if state.showing { state.bytes += StandardStreams.eraseLine }
        state.showing = false
      }
    }
  }

  final class FakeClock: Sendable {
    private let now = Mutex(Duration.zero)
    func advance(_ duration: Duration) { now.withLock { $0 += duration } }
    var time: Duration { now.withLock { $0 } }
  }

  static func display(
    total: Int, terminal: FakeTerminal, clock: FakeClock, secrets: SecretRegistry = SecretRegistry()
  ) -> ProgressDisplay {
    ProgressDisplay(
      total: total, terminal: terminal, interval: .milliseconds(250), clock: { clock.time },
      sanitize: ProgressDisplay.sanitizer(secrets))
  }

  static func report(_ name: String, _ status: Status, file: String = "a.yaml") -> ScenarioReport {
    ScenarioReport(
      name: name, file: file, location: SourceLocation(file: file, line: 1, column: 1), tags: [], status: status,
      duration: .milliseconds(5), steps: [])
  }

  @Test func drawsInPlaceAndErasesAtTheEnd() async {
    let terminal = FakeTerminal(columns: 80)
    let clock = FakeClock()
    let display = Self.display(total: 3, terminal: terminal, clock: clock)
    await display.scenarioStarted(name: "Login works", file: "a.yaml")
    clock.advance(.milliseconds(300))
    await display.scenarioStarted(name: "Refresh rotates", file: "b.yaml")
    clock.advance(.milliseconds(300))
    await display.scenarioFinished(Self.report("Login works", .failed))
    display.stop()
    #expect(
      terminal.bytes
        == "\r0/3 done, 0 failed · running: Login works\u{1B}[K"
        + "\r0/3 done, 0 failed · running: Login works, Refresh rotates\u{1B}[K"
        + "\r1/3 done, 1 failed · running: Refresh rotates\u{1B}[K"
        + "\r\u{1B}[K")
    #expect(!terminal.isShowing)
    // Stopped: later events draw nothing.
    await display.scenarioFinished(Self.report("Refresh rotates", .passed, file: "b.yaml"))
    clock.advance(.seconds(1))
    display.tick()
    #expect(terminal.bytes.hasSuffix("running: Refresh rotates\u{1B}[K\r\u{1B}[K"))
  }

  /// Updates inside one interval are not drawn one by one: the next tick draws the latest.
  @Test func redrawsAtMostOncePerInterval() async {
    let terminal = FakeTerminal(columns: 80)
    let clock = FakeClock()
    let display = Self.display(total: 100, terminal: terminal, clock: clock)
    for index in 0..<50 {
      await display.scenarioStarted(name: "S\(index)", file: "s.yaml")
      await display.scenarioFinished(Self.report("S\(index)", index % 10 == 0 ? .error : .passed, file: "s.yaml"))
      clock.advance(.milliseconds(10))
    }
    // 100 updates from 0 to 490 ms: drawn at 0 and at 250 ms only.
    #expect(terminal.bytes.components(separatedBy: "\r").count - 1 == 2)
    #expect(terminal.bytes.hasSuffix("\r25/100 done, 0 failed, 3 errors · running: S25\u{1B}[K"))
    // At 500 ms the timer's tick draws the latest state.
    display.tick()
    #expect(terminal.bytes.components(separatedBy: "\r").count - 1 == 3)
    #expect(terminal.bytes.hasSuffix("\r50/100 done, 0 failed, 5 errors\u{1B}[K"))
    // Nothing changed and the line is on screen: no redraw.
    clock.advance(.seconds(1))
    display.tick()
    #expect(terminal.bytes.components(separatedBy: "\r").count - 1 == 3)
  }

  /// Other output erased the line: it is drawn again, unchanged, once other output has been quiet
  /// for `settle` (output piped through `tee` reaches the screen a little later).
  @Test func redrawsWhenOtherOutputIsQuiet() async {
    let terminal = FakeTerminal(columns: 80)
    let clock = FakeClock()
    let display = Self.display(total: 2, terminal: terminal, clock: clock)
    await display.scenarioStarted(name: "Alpha", file: "a.yaml")
    terminal.output("✓ Zeta\n")
    clock.advance(.milliseconds(250))
    display.tick()
    clock.advance(.milliseconds(50))
    terminal.output("✓ Eta\n")
    clock.advance(.milliseconds(90))
    display.tick()
    let line = "\r0/2 done, 0 failed · running: Alpha\u{1B}[K"
    #expect(terminal.bytes == line + "\r\u{1B}[K✓ Zeta\n✓ Eta\n", "not while output goes on")
    clock.advance(.milliseconds(100))
    display.tick()
    #expect(terminal.bytes == line + "\r\u{1B}[K✓ Zeta\n✓ Eta\n" + line)
  }

  /// The line never reaches the last column, whatever the names; it follows a resize.
  @Test func namesAreCutToTheWidth() async {
    let terminal = FakeTerminal(columns: 40)
    let clock = FakeClock()
    let display = Self.display(total: 9, terminal: terminal, clock: clock)
    await display.scenarioStarted(name: "A scenario with a rather long name indeed", file: "a.yaml")
    #expect(terminal.bytes == "\r0/9 done, 0 failed · running: A scenar…\u{1B}[K")
    terminal.resize(24)
    clock.advance(.milliseconds(250))
    await display.scenarioStarted(name: "漢字の名前", file: "b.yaml")
    #expect(terminal.bytes.hasSuffix("\r0/9 done, 0 failed · r…\u{1B}[K"))
    // Wide characters count two columns each.
    #expect(ProgressLine.fit("ab漢字の名前", columns: 7) == "ab漢字…")
    #expect(ProgressLine.fit("short", columns: 7) == "short")
    // A terminal reporting a silly width is clamped.
    terminal.resize(0)
    clock.advance(.milliseconds(250))
    await display.scenarioStarted(name: "C", file: "c.yaml")
    let last = terminal.bytes.components(separatedBy: "\r").last ?? ""
    #expect(last.count - "\u{1B}[K".count == ProgressDisplay.widthRange.lowerBound - 1)
  }

  /// Matrix instance names can carry values: a secret among them is masked, a control character
  /// shown, never sent.
  @Test func namesAreMaskedAndCannotDriveTheTerminal() async {
    let secrets = SecretRegistry()
    let terminal = FakeTerminal(columns: 120)
    let clock = FakeClock()
    let display = Self.display(total: 1, terminal: terminal, clock: clock, secrets: secrets)
    await display.scenarioStarted(name: "Login [password: hunter2-secret]\u{1B}[2J", file: "a.yaml")
    // Learnt after the scenario started: masked from the next draw on.
    secrets.register("hunter2-secret")
    terminal.output("\n")
    clock.advance(.milliseconds(250))
    display.tick()
    clock.advance(.milliseconds(100))
    display.tick()
    let last = terminal.bytes.components(separatedBy: "\r").last ?? ""
    #expect(!last.contains("hunter2-secret"))
    #expect(last.contains("Login [password: "))
    #expect(last.contains(#"\u{1B}[2J"#))
    #expect(last.filter { $0 == "\u{1B}" }.count == 1, "only the erase at the end")
  }

  /// A terminal that cannot be written (a closed standard error) ends the display quietly.
  @Test func aFailedWriteStopsDrawing() async {
    let terminal = FakeTerminal(columns: 80)
    let clock = FakeClock()
    let display = Self.display(total: 2, terminal: terminal, clock: clock)
    terminal.failWrites()
    await display.scenarioStarted(name: "Alpha", file: "a.yaml")
    // Writable again (it never is, in life): the display has given up.
    terminal.failWrites(false)
    clock.advance(.seconds(1))
    display.tick()
    await display.scenarioFinished(Self.report("Alpha", .passed))
    #expect(terminal.bytes.isEmpty)
  }
}
