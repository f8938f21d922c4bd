import AuthFlowResults

/// What bounds the HTML report's size: the steps' HTTP exchanges, results and decoded tokens —
/// everything that grows with what the tenant answered — share one budget of bytes for the page.
///
/// Scenarios a reader opens the page for (failed, errored, interrupted, or with warnings) are
/// served first, each exchange in full (request and response as `--trace` prints them). Passing
/// scenarios come second and show each exchange as its first line and status only. Whatever does
/// not fit is left out, and the page says where and how much: a note on the step and one under the
/// summary. The JSON report keeps everything.
struct HTMLDetailBudget {
  /// The bytes of exchanges, results and tokens one page holds: 8 MiB (a 1,000-scenario run's
  /// page stays a few tens of MB at most; the bundled suite's is far under it).
  static let defaultLimit = 8 * 1024 * 1024
  /// Up to this many bytes of details, a page shows every scenario's exchanges in full, passing
  /// ones too, and leaves nothing out: 2 MiB, a page a browser opens at once.
  static let allInFullLimit = 2 * 1024 * 1024

  /// What was left out or cut, for the page's note.
  struct LeftOut: Sendable, Hashable {
    /// Exchanges of passing scenarios shown by their first lines only.
    var summarisedExchanges = 0
    /// Exchanges, results and token tables left out because the budget was spent.
    var exchanges = 0
    var results = 0

    var isEmpty: Bool { self == LeftOut() }
  }

  let limit: Int
  private(set) var used = 0
  private(set) var leftOut = LeftOut()

  init(limit: Int = defaultLimit) {
    self.limit = limit
  }

  /// Whether a scenario's exchanges are shown in full: it did not pass, or it warned.
  static func showsInFull(_ scenario: ScenarioReport) -> Bool {
    scenario.status != .passed || !scenario.warnings.isEmpty
  }

  /// Takes `bytes` from the budget; false (nothing taken) when they do not fit.
  mutating func take(_ bytes: Int) -> Bool {
    guard bytes <= limit - used else { return false }
    used += bytes
    return true
  }

  /// Whether anything is left at all (a result is not even rendered once nothing is).
  var isSpent: Bool { used >= limit }

  mutating func noteSummarised(_ count: Int) { leftOut.summarisedExchanges += count }
  mutating func noteLeftOut(exchanges: Int = 0, results: Int = 0) {
    leftOut.exchanges += exchanges
    leftOut.results += results
  }
}
