/// The transactions of the device flow (RFC 8628): device codes and their `/activate`
/// transactions, each polled and decided in single steps.
extension MockState {
  /// Stores a new device authorization; false (nothing stored) when its user code is taken.
  mutating func startDeviceAuthorization(_ authorization: DeviceAuthorization, now: Double) -> Bool {
    deviceCodes.insert(authorization, now: now)
  }

  /// One poll of a device code by `clientID` (``DeviceCodeStore/poll(_:clientID:now:)``).
  mutating func pollDeviceCode(_ deviceCode: String, clientID: String, now: Double) -> DeviceCodeStore.Poll {
    deviceCodes.poll(deviceCode, clientID: clientID, now: now)
  }

  /// Starts an `/activate` transaction.
  mutating func startActivation(_ activation: DeviceActivation, expiresAt: Double) {
    deviceActivations.insert(activation, key: activation.id, expiresAt: expiresAt)
  }

  /// What a user code typed on `/activate` found.
  enum UserCodeEntry: Sendable {
    /// The activation transaction is unknown or expired.
    case unknownActivation
    /// No live, undecided code: the failure is counted (the activation as it is now).
    case wrong(DeviceActivation)
    /// The last wrong code allowed: the activation transaction is gone.
    case tooManyAttempts
    /// The code's authorization, remembered on the activation for the confirmation.
    case accepted(DeviceActivation, DeviceAuthorization)
  }

  /// Enters a user code on an `/activate` transaction (RFC 8628 §5.1, brute force) in one step:
  /// the code is looked up and a failure counted, so concurrent guesses never pass `maxFailures`.
  mutating func enterUserCode(
    _ typed: String, activation id: String, now: Double, maxFailures: Int, lifetime: Double
  ) -> UserCodeEntry {
    guard var activation = deviceActivations.get(id, now: now) else { return .unknownActivation }
    guard let authorization = deviceCodes.pending(userCode: typed, now: now) else {
      activation.failures += 1
      guard activation.failures < maxFailures else {
        deviceActivations.remove(id)
        return .tooManyAttempts
      }
      deviceActivations.insert(activation, key: id, expiresAt: now + lifetime)
      return .wrong(activation)
    }
    activation.userCode = authorization.userCode
    deviceActivations.insert(activation, key: id, expiresAt: now + lifetime)
    return .accepted(activation, authorization)
  }

  /// Takes the `/activate` transaction `id` for the confirmation that ends it: nil when it is gone
  /// (ended by a concurrent confirmation, or expired), so a confirmation form is used once.
  mutating func takeActivation(_ id: String, now: Double) -> DeviceActivation? {
    deviceActivations.take(id, now: now)
  }

  /// Records the user's decision on a live, undecided user code; false when it is decided or gone
  /// (a user code is decided once).
  mutating func decideUserCode(_ userCode: String, _ status: DeviceAuthorization.Status, now: Double) -> Bool {
    deviceCodes.decide(userCode: userCode, status, now: now)
  }
}
