import AuthFlowCore
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a run keeps its finished scenarios instead of memory: an unnamed temporary file, one
/// JSON line per scenario (``SpoolRecord``) written as the scenario finishes, and read back one
/// at a time when the reports are written (``reports(in:fallback:)``).
///
/// Each report goes through `prepare` first — the run redacts it there (texts scrubbed, secrets
/// masked, tokens expanded as the reports show them) and drops the step results when no reporter
/// writes them — so the file never holds a secret the run knew of (with `--show-secrets` it holds
/// what the reports hold). Reporters redact again when they render, so a secret learnt after a
/// scenario finished is still masked in its report.
///
/// The file has no name: on Linux it is created unnamed in its directory (`O_TMPFILE`),
/// elsewhere created and unlinked at once. Nothing is left behind, whatever ends the process —
/// `kill -9` included — and the space is freed when the last reader is gone. What memory keeps
/// is an offset per position (8 bytes), the scenarios running now, and the totals by status: a
/// 100,000-scenario run holds no report.
///
/// A report that cannot be written (a full disk) or whose result is nested too deep to be read
/// back is kept in memory instead, so a report is never lost.
public final class ScenarioSpool: Sendable {
  /// Where the spool could not be created.
  public struct CreationError: Error, Sendable, CustomStringConvertible {
    public var directory: String
    public var reason: String
    public var description: String { "cannot create the run's results spool in \(directory): \(reason)" }
  }

  private struct State {
    /// The byte offset of each position's record, or -1 while it has none.
    var offsets: [Int64] = []
    /// Each position's status once stored (``Status/spoolCode``), 0 before.
    var statuses: [UInt8] = []
    /// The warnings of the positions that have any.
    var warnings: [Int: Int] = [:]
    /// Where the next record goes.
    var end: Int64 = 0
    var running: Set<Int> = []
    /// Reports that could not be spooled.
    var kept: [Int: ScenarioReport] = [:]

    mutating func grow(to position: Int) {
      guard position >= offsets.count else { return }
      let added = position + 1 - offsets.count
      offsets.append(contentsOf: repeatElement(-1, count: added))
      statuses.append(contentsOf: repeatElement(0, count: added))
    }
  }

  private let descriptor: Int32
  private let prepare: @Sendable (ScenarioReport) -> ScenarioReport
  private let state: Mutex<State>

  /// The deepest step result a record holds; deeper ones stay in memory (the JSON reader's own
  /// bound, less the record's nesting).
  static let maximumResultDepth = 500

  /// Creates the spool in `directory` for `capacity` positions (more are added as needed).
  /// `prepare` makes each report what the spool keeps of it.
  public init(
    directory: String, capacity: Int = 0, prepare: @escaping @Sendable (ScenarioReport) -> ScenarioReport
  ) throws(CreationError) {
    guard let descriptor = Self.openUnnamed(in: directory) else {
      throw CreationError(directory: directory, reason: String(cString: strerror(errno)))
    }
    self.descriptor = descriptor
    self.prepare = prepare
    var initial = State()
    if capacity > 0 { initial.grow(to: capacity - 1) }
    state = Mutex(initial)
  }

  deinit {
    close(descriptor)
  }

  /// Marks the scenario at `position` as running: a report written before it finishes says so.
  public func started(at position: Int) {
    state.withLock { state in
      state.grow(to: position)
      state.running.insert(position)
    }
  }

  /// Spools the report of the scenario at `position` (through `prepare`); a report stored again
  /// replaces the first.
  public func store(_ report: ScenarioReport, at position: Int) {
    let prepared = prepare(report)
    let deep = prepared.steps.contains { ($0.result?.nestingDepth ?? 0) > Self.maximumResultDepth }
    let bytes = Array((deep ? "" : SpoolRecord.encode(prepared) + "\n").utf8)
    let offset = state.withLock { state -> Int64 in
      let offset = state.end
      state.end += Int64(bytes.count)
      return offset
    }
    let written = !deep && bytes.withUnsafeBytes { Self.writeAll($0, to: descriptor, at: offset) }
    let warnings = prepared.warnings.count
    state.withLock { state in
      state.grow(to: position)
      if written {
        state.offsets[position] = offset
        state.kept[position] = nil
      } else {
        state.offsets[position] = -1
        state.kept[position] = prepared
      }
      state.statuses[position] = prepared.status.spoolCode
      state.warnings[position] = warnings > 0 ? warnings : nil
      state.running.remove(position)
    }
  }

  /// How many of `positions` have a report.
  public func storedCount(in positions: Range<Int>) -> Int {
    state.withLock { state in positions.count { $0 < state.statuses.count && state.statuses[$0] != 0 } }
  }

  /// How many reports are held in memory because they could not be spooled (0 in a healthy run).
  public var keptInMemoryCount: Int { state.withLock { $0.kept.count } }

  /// The reports of `positions` as they are now, in order: each read back from the file when it
  /// is read, and `fallback(position, running)` for a position without one (not started, or still
  /// running). Scenarios that finish afterwards are not in it, so its totals and its reports
  /// agree. Fallback reports must be `interrupted` without warnings, as every scenario a run did
  /// not finish is: the totals (``ScenarioReports/summary``) are then known without reading
  /// anything.
  public func reports(
    in positions: Range<Int>, fallback: @escaping @Sendable (Int, Bool) -> ScenarioReport
  ) -> ScenarioReports {
    let (snapshot, summary) = state.withLock { state in
      var summary = ScenarioReports.Summary()
      for position in positions {
        let code = position < state.statuses.count ? state.statuses[position] : 0
        summary.counts[Status(spoolCode: code) ?? .interrupted, default: 0] += 1
      }
      for (position, count) in state.warnings where positions.contains(position) { summary.warnings += count }
      return (Snapshot(offsets: state.offsets, kept: state.kept, running: state.running), summary)
    }
    return ScenarioReports(count: positions.count, summary: summary) { [self] index in
      let position = positions.lowerBound + index
      if let kept = snapshot.kept[position] { return kept }
      let offset = position < snapshot.offsets.count ? snapshot.offsets[position] : -1
      guard offset >= 0 else { return fallback(position, snapshot.running.contains(position)) }
      guard let line = readLine(at: offset), let report = SpoolRecord.decode(line) else {
        var lost = fallback(position, false)
        lost.status = .error
        lost.skipReason = SpoolMessages.unreadable
        return lost
      }
      return report
    }
  }

  /// What ``reports(in:fallback:)`` reads: the index as it was.
  private struct Snapshot: Sendable {
    var offsets: [Int64]
    var kept: [Int: ScenarioReport]
    var running: Set<Int>
  }

  /// The bytes of the whole file (tests scan it for secrets).
  func contents() -> Data {
    let end = state.withLock { $0.end }
    var data = Data(count: Int(end))
    let count = data.withUnsafeMutableBytes { buffer in Self.readAll(into: buffer, from: descriptor, at: 0) }
    return data.prefix(count)
  }

  /// The line at `offset`, without its newline.
  private func readLine(at offset: Int64) -> Data? {
    var chunk = 16_384
    while true {
      var data = Data(count: chunk)
      let count = data.withUnsafeMutableBytes { buffer in Self.readAll(into: buffer, from: descriptor, at: offset) }
      if let newline = data.prefix(count).firstIndex(of: UInt8(ascii: "\n")) { return data.prefix(upTo: newline) }
      guard count == chunk else { return nil }
      chunk *= 4
    }
  }

  private static func readAll(
    into buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int64
  )
    -> Int
  {
    guard let base = buffer.baseAddress else { return 0 }
    var done = 0
    while done < buffer.count {
      let count = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      done += count
    }
    return done
  }

  private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int64) -> Bool {
    guard let base = bytes.baseAddress else { return bytes.isEmpty }
    var done = 0
    while done < bytes.count {
      let count = pwrite(descriptor, base + done, bytes.count - done, off_t(offset) + off_t(done))
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return false }
      done += count
    }
    return true
  }

  /// A file in `directory` with no name: `O_TMPFILE` on Linux, else created and unlinked at once.
  private static func openUnnamed(in directory: String) -> Int32? {
    #if os(Linux)
      // O_TMPFILE is `__O_TMPFILE | O_DIRECTORY`; Glibc's header macro does not import into Swift.
      let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
      let unnamed = open(directory, temporaryFile | O_RDWR | O_CLOEXEC, 0o600)
      if unnamed >= 0 { return unnamed }
    #endif
    for _ in 0..<8 {
      let path = "\(directory)/.authflow-spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      let named = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if named >= 0 {
        unlink(path)
        return named
      }
      if errno != EEXIST { return nil }
    }
    return nil
  }
}

/// The spool's texts.
enum SpoolMessages {
  static let unreadable = "the run's record of this scenario could not be read back from its spool file"
}

extension Status {
  /// The status as one byte of the spool's index (never 0, which means "no report yet").
  var spoolCode: UInt8 {
    switch self {
    case .passed: 1
    case .failed: 2
    case .skipped: 3
    case .error: 4
    case .interrupted: 5
    }
  }

  init?(spoolCode: UInt8) {
    switch spoolCode {
    case 1: self = .passed
    case 2: self = .failed
    case 3: self = .skipped
    case 4: self = .error
    case 5: self = .interrupted
    default: return nil
    }
  }
}

extension Value {
  /// How deeply arrays and objects nest in the value (a scalar is 0).
  var nestingDepth: Int {
    switch self {
    case .array(let items): 1 + (items.map(\.nestingDepth).max() ?? 0)
    case .object(let members): 1 + (members.values.map(\.nestingDepth).max() ?? 0)
    case .secret(let inner): inner.nestingDepth
    default: 0
    }
  }
}
