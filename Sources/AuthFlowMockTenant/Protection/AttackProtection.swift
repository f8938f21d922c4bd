/// Mutable state of attack protection: rate-limit windows and one-time tickets (password reset,
/// unblock). Brute-force failure counts live in `UserStore`.
struct AttackProtection: Sendable {
  /// A fixed one-minute window of one rate-limit key.
  struct Window: Sendable {
    var start: Double
    var count: Int
  }

  /// What a ticket (an emailed link) does.
  enum Ticket: Sendable {
    /// Resets the password of the user (and unblocks them).
    case resetPassword(userID: String)
    /// Clears the brute-force block of a failure key.
    case unblock(failureKey: String)
  }

  private var windows: [String: Window] = [:]
  private var tickets: [String: (ticket: Ticket, expiresAt: Double)] = [:]
  private let limits: MockStateLimits
  private var countsSincePurge = 0
  private var issuesSincePurge = 0

  init(limits: MockStateLimits = MockStateLimits()) {
    self.limits = limits
  }

  /// How many rate-limit windows and tickets are held.
  var counts: (windows: Int, tickets: Int) { (windows.count, tickets.count) }

  /// Counts a request on `key`; returns the window after counting. Windows that have ended are
  /// purged every `purgeInterval` counts (a new one starts at zero anyway), and past
  /// `maxEntriesPerStore` keys the oldest windows go.
  mutating func count(_ key: String, now: Double, windowLength: Double) -> Window {
    var window = windows[key] ?? Window(start: now, count: 0)
    if now >= window.start + windowLength { window = Window(start: now, count: 0) }
    window.count += 1
    windows[key] = window
    countsSincePurge += 1
    if countsSincePurge >= limits.purgeInterval || windows.count > limits.maxEntriesPerStore {
      countsSincePurge = 0
      windows.removeEntries { now >= $0.start + windowLength }
      if windows.count > limits.maxEntriesPerStore {
        windows.keepLargest(limits.trimmedSize) { $0.start }
      }
    }
    return window
  }

  mutating func issue(_ ticket: Ticket, id: String, expiresAt: Double, now: Double) {
    tickets[id] = (ticket, expiresAt)
    issuesSincePurge += 1
    if issuesSincePurge >= limits.purgeInterval || tickets.count > limits.maxEntriesPerStore {
      issuesSincePurge = 0
      let cutoff = now - limits.expiredGrace
      tickets.removeEntries { $0.expiresAt <= cutoff }
      if tickets.count > limits.maxEntriesPerStore {
        tickets.keepLargest(limits.trimmedSize) { $0.expiresAt }
      }
    }
  }

  /// The live ticket (not consumed).
  func ticket(_ id: String, now: Double) -> Ticket? {
    guard let entry = tickets[id], entry.expiresAt > now else { return nil }
    return entry.ticket
  }

  /// Consumes a ticket: single use.
  mutating func redeem(_ id: String, now: Double) -> Ticket? {
    guard let entry = tickets.removeValue(forKey: id), entry.expiresAt > now else { return nil }
    return entry.ticket
  }
}
