/// The transactions of CIBA (OpenID CIBA Core): back-channel requests (`/bc-authorize`), each
/// polled and decided in single steps.
extension MockState {
  /// Stores a CIBA request (`/bc-authorize`) under its `auth_req_id`.
  mutating func startBackchannelRequest(_ request: BackchannelRequest, id: String) {
    backchannel.insert(request, id: id)
  }

  /// One poll of a CIBA request by `clientID` (``BackchannelStore/poll(_:clientID:now:penalty:)``).
  mutating func pollBackchannelRequest(
    _ id: String, clientID: String, now: Double, penalty: Int
  ) -> BackchannelStore.Poll {
    backchannel.poll(id, clientID: clientID, now: now, penalty: penalty)
  }

  /// Approves or denies a pending CIBA request (`/__mock/ciba/…`); false when there is none.
  mutating func decideBackchannelRequest(_ id: String, approve: Bool, now: Double) -> Bool {
    backchannel.decide(id, approve: approve, now: now)
  }
}
