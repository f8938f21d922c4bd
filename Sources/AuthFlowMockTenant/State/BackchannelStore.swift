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

/// The CIBA requests by `auth_req_id`. Expired requests are kept so that polling them keeps
/// answering `expired_token` rather than "unknown"; a request is removed once its tokens are issued
/// or its denial reported (single use).
actor BackchannelStore {
  enum Lookup: Sendable {
    case live(BackchannelRequest)
    case expired
    case missing
  }

  private var requests: [String: BackchannelRequest] = [:]

  func insert(_ request: BackchannelRequest, id: String) { requests[id] = request }

  func lookup(_ id: String, now: Double) -> Lookup {
    guard let request = requests[id] else { return .missing }
    return request.expiresAt > now ? .live(request) : .expired
  }

  func update(_ request: BackchannelRequest, id: String) {
    guard requests[id] != nil else { return }
    requests[id] = request
  }

  func remove(_ id: String) { requests[id] = nil }

  /// Approves or denies a pending, live request (what the user's authentication device does).
  /// False when there is no such request.
  func decide(_ id: String, approve: Bool, now: Double) -> Bool {
    guard var request = requests[id], request.status == .pending, request.expiresAt > now else { return false }
    request.status = approve ? .approved : .denied
    request.decidedAt = now
    requests[id] = request
    return true
  }

  func removeAll() { requests.removeAll() }
}
