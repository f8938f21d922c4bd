import AuthFlowCore

/// A CIBA authentication request (`POST /bc-authorize`) and the user's decision on it.
struct BackchannelRequest: Sendable {
  enum Status: Sendable { case pending, approved, denied }

  var clientID: String
  var userID: String
  var scope: [String]
  var audience: String?
  var bindingMessage: String
  /// Rich Authorization Request details (a JSON array), returned with the tokens.
  var authorizationDetails: Value?
  var status: Status = .pending
  /// Seconds the client must wait between polls; `slow_down` adds 5 (OpenID CIBA §11).
  var interval: Int
  var lastPoll: Double?
  /// When the user approved (the `auth_time` of the tokens).
  var decidedAt: Double?
  var expiresAt: Double
}

/// The CIBA requests by `auth_req_id`. Expired requests are kept for `expiredGrace` so that
/// polling them keeps answering `expired_token` rather than "unknown"; a request is removed once its
/// tokens are issued or its denial reported (single use). Bounded like every per-login store
/// (``MockStateLimits``): purged of long-expired requests and capped at `maxEntriesPerStore`.
struct BackchannelStore: Sendable {
  /// What one poll of the token endpoint finds.
  enum Poll: Sendable {
    /// Unknown, used up, or another client's.
    case unknown
    case expired
    /// Pending; `slowDown` when polled within the interval (which grows by `penalty`).
    case pending(slowDown: Bool, interval: Int)
    /// Denied: reported once, then the request is gone.
    case denied
    /// Approved: the request, handed out once (it is removed in the same step).
    case approved(BackchannelRequest)
  }

  private var requests: ExpiringStore<BackchannelRequest>

  init(limits: MockStateLimits, now: @escaping @Sendable () -> Double) {
    requests = ExpiringStore(limits: limits, now: now)
  }

  mutating func insert(_ request: BackchannelRequest, id: String) {
    requests.insert(request, key: id, expiresAt: request.expiresAt)
  }

  /// One poll by `clientID`, decided and recorded in one step of the state, so two concurrent
  /// polls of an approved request cannot both get it. Another client's request is as good as
  /// unknown, expired or not.
  mutating func poll(_ id: String, clientID: String, now: Double, penalty: Int) -> Poll {
    guard var request = requests.stored(id), request.clientID == clientID else { return .unknown }
    guard request.expiresAt > now else { return .expired }
    switch request.status {
    case .pending:
      let tooFast = request.lastPoll.map { now - $0 < Double(request.interval) } ?? false
      request.lastPoll = now
      if tooFast { request.interval += penalty }
      insert(request, id: id)
      return .pending(slowDown: tooFast, interval: request.interval)
    case .denied:
      requests.remove(id)
      return .denied
    case .approved:
      requests.remove(id)
      return .approved(request)
    }
  }

  /// Approves or denies a pending, live request (what the user's authentication device does).
  /// False when there is no such request.
  mutating func decide(_ id: String, approve: Bool, now: Double) -> Bool {
    guard var request = requests.live(id, now: now), request.status == .pending else { return false }
    request.status = approve ? .approved : .denied
    request.decidedAt = now
    insert(request, id: id)
    return true
  }

  var count: Int { requests.count }
}
