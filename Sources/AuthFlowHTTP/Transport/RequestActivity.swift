import Synchronization

/// The HTTP exchanges under way for one unit of work (a step), so that a deadline which expires
/// while the tenant has not answered is told apart from one that expires in the scenario's own
/// waiting: the first is an environment failure (the tenant is slow), the second an assertion-side
/// timeout.
///
/// The runner binds one to ``current`` (a task-local, inherited by child tasks) around a step;
/// `LiveTransport` marks each exchange and `RetryingTransport` each rate-limit wait as under way.
public final class RequestActivity: Sendable {
  /// The activity of the step the current task works for; nil outside a step.
  @TaskLocal public static var current: RequestActivity?

  private struct State: Sendable {
    var next = 0
    var pending: [Int: String] = [:]
    var parentTokens: [Int: Int] = [:]
    var atDeadline: String?
  }

  private let state = Mutex(State())
  /// The enclosing unit's activity (the scenario's, around a step's), told of every exchange too,
  /// so that the scenario's deadline also knows whether the tenant was holding it up.
  private let parent: RequestActivity?

  /// - Parameter parent: the enclosing activity, usually ``current`` where the new one is bound.
  public init(parent: RequestActivity? = nil) {
    self.parent = parent
  }

  /// Marks an exchange with `url` as under way; pass the token to ``end(_:)``.
  public func begin(_ url: String) -> Int {
    let parentToken = parent?.begin(url)
    return state.withLock { state in
      state.next += 1
      state.pending[state.next] = url
      if let parentToken { state.parentTokens[state.next] = parentToken }
      return state.next
    }
  }

  /// Marks the exchange as over.
  public func end(_ token: Int) {
    let parentToken = state.withLock { state in
      state.pending.removeValue(forKey: token)
      return state.parentTokens.removeValue(forKey: token)
    }
    if let parentToken { parent?.end(parentToken) }
  }

  /// The URL of the oldest exchange still under way, if any.
  public var pendingURL: String? {
    state.withLock { state in state.pending.min { $0.key < $1.key }?.value }
  }

  /// Records which exchange (if any) was under way when the deadline expired; call it from the
  /// deadline itself, before the work is cancelled.
  public func markDeadline() {
    state.withLock { state in state.atDeadline = state.pending.min { $0.key < $1.key }?.value }
  }

  /// The URL the tenant had not answered when the deadline expired, or nil.
  public var pendingAtDeadline: String? { state.withLock { $0.atDeadline } }
}
