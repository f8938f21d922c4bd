/// Mutable state of attack protection: rate-limit windows and one-time tickets (password reset,
/// unblock). Brute-force failure counts live in `UserStore`.
actor AttackProtection {
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

  /// Counts a request on `key`; returns the window after counting.
  func count(_ key: String, now: Double, windowLength: Double) -> Window {
    var window = windows[key] ?? Window(start: now, count: 0)
    if now >= window.start + windowLength { window = Window(start: now, count: 0) }
    window.count += 1
    windows[key] = window
    return window
  }

  func issue(_ ticket: Ticket, id: String, expiresAt: Double) {
    tickets[id] = (ticket, expiresAt)
  }

  /// The live ticket (not consumed).
  func ticket(_ id: String, now: Double) -> Ticket? {
    guard let entry = tickets[id], entry.expiresAt > now else { return nil }
    return entry.ticket
  }

  /// Consumes a ticket: single use.
  func redeem(_ id: String, now: Double) -> Ticket? {
    guard let entry = tickets.removeValue(forKey: id), entry.expiresAt > now else { return nil }
    return entry.ticket
  }

  func removeAll() {
    windows.removeAll()
    tickets.removeAll()
  }
}
