import AuthFlowJOSE

/// The transactions of the tenant's own machinery: test control (`/__mock/*`: faults, the outbox,
/// signing keys, minted tokens), rate limits, and clients registered at `/oidc/register`.
extension MockState {
  /// Adds a fault (numbered by the store).
  mutating func addFault(_ fault: Fault) -> Fault {
    faults.add(fault)
  }

  /// Removes every fault.
  mutating func clearFaults() {
    faults.removeAll()
  }

  /// The fault for `path`, counted (``FaultStore/take(for:)``).
  mutating func takeFault(for path: String) -> Fault? {
    faults.take(for: path)
  }

  /// Empties the outbox (ids keep counting).
  mutating func clearOutbox() {
    outbox.clear()
  }

  /// Makes `next` the signing key (``SigningKeys/rotate(to:revokePrevious:)``): the new `kid` and
  /// every published one, current first.
  mutating func rotateSigningKey(to next: SigningKey, revokePrevious: Bool) -> [String] {
    signingKeys.rotate(to: next, revokePrevious: revokePrevious)
    return signingKeys.publishedKeyIDs
  }

  /// Remembers the signature of a token `/__mock/sign` made, so the tenant's endpoints never accept
  /// it (the latest `capacity`; past that an arbitrary old one is forgotten).
  mutating func recordMintedSignature(_ signature: String, capacity: Int) {
    if mintedSignatures.count >= capacity, !mintedSignatures.contains(signature) {
      mintedSignatures.removeFirst()
    }
    mintedSignatures.insert(signature)
  }

  /// Counts a request on a rate-limit key: the window after counting.
  mutating func countRequest(_ key: String, now: Double, windowLength: Double) -> AttackProtection.Window {
    protection.count(key, now: now, windowLength: windowLength)
  }

  /// Adds a client created by Dynamic Client Registration, unless `limit` clients exist already
  /// (checked and added in one step, so concurrent registrations cannot pass the limit).
  mutating func registerClient(_ client: ClientConfig, limit: Int) -> Bool {
    guard registeredClients.count < limit else { return false }
    registeredClients[client.clientID] = client
    return true
  }
}
