public import AuthFlowCore
public import AuthFlowScenario

/// `device_token` — the device polls the token endpoint with its device code (RFC 8628 §3.4–3.5).
public struct DeviceTokenAction: Action {
  /// The device-code grant type.
  static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

  static let deviceCode = Parameter<String>("device_code", required: true, summary: "From `device_authorization`.")
  static let interval = Parameter<Int>(
    "interval", summary: "Seconds between polls (default 5, the server's `interval`).")
  static let timeout = Parameter<Duration>(
    "timeout", summary: "Give up polling after this long, e.g. 2m (default 60s); the last answer stands.")
  static let once = Parameter<Bool>("once", summary: "Poll once and return whatever the server answers.")

  public static let signature = ActionSignature(
    name: "device_token", summary: "Poll /oauth/token with a device code until the user decides (the device flow).",
    declaring: [Self.deviceCode, Self.interval, Self.timeout, Self.once],
    results: .closed(ResultField.credentials + [ResultField("polls", "How many requests were sent.")]))

  public static let documentation = """
    Sends `POST /oauth/token` with `grant_type=urn:ietf:params:oauth:grant-type:device_code`,
    `device_code` and the client's authentication. While the answer is `authorization_pending`
    it waits `interval` seconds (real time) and polls again; `slow_down` adds 5 seconds to the
    interval, as RFC 8628 §3.5 says. Any other answer ends the step: tokens (a credentials
    result, with `polls`, the number of requests sent) or an error (`access_denied` when the
    user declined, `expired_token`, `invalid_grant` for an unknown or used code). After `timeout`
    the last `authorization_pending` is the step's error. With `once: true` it sends one request
    (to check `authorization_pending` or `slow_down` themselves).
    """

  public static let example = """
    scenario: A device polls before the user has confirmed, then too fast, then in time
    requires: [device_flow, mock_control]
    client: native
    steps:
      - id: code
        device_authorization: {}
      - id: early
        device_token: { device_code: "${{ steps.code.device_code }}", once: true }
        expect:
          error.code: authorization_pending
          error.description: User has yet to authorize device code.
          error.status: 403
      # The mock measures the interval between polls on its virtual clock. Set back a minute, the
      # next poll is within the interval (5 s) however long the machine took since the first one.
      - id: back
        mock_clock: -1m
      - id: too_fast
        device_token: { device_code: "${{ steps.code.device_code }}", once: true }
        expect:
          error.code: slow_down
          error.status: 429
      # Two minutes later on the virtual clock the interval has passed: pending again, not slow_down.
      - id: later
        mock_clock: 2m
      - id: in_time
        device_token: { device_code: "${{ steps.code.device_code }}", once: true }
        expect:
          error.code: authorization_pending
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidGrant,
    scenario: """
      scenario: An unknown device code is refused
      requires: [device_flow]
      client: native
      steps:
        - id: fails
          device_token: { device_code: not-a-device-code, once: true }
      """)

  public static let traits = ActionTraits(
    capabilities: ["device_flow"],
    errors: StepErrorCode.tokenEndpoint + [.authorizationPending, .slowDown, .expiredToken],
    failures: ActionTraits.tenantCall, timeout: .polls(parameter: Self.timeout.name, defaultLimit: .seconds(60)))

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    guard let deviceCode = try input[Self.deviceCode] else {
      throw .invalidParameter(Self.deviceCode, "is required")
    }
    // At least a second between polls: an interval of 0 would poll with no pause until the timeout.
    // Between 1 second and an hour (each `slow_down` adds 5 seconds, up to the hour too).
    var interval = min(max(try input[Self.interval] ?? 5, 1), 3600)
    let timeout = try input[Self.timeout] ?? .seconds(60)
    let once = try input[Self.once] ?? false
    let api = AuthenticationAPI(context)
    let clock = ContinuousClock()
    let start = clock.now
    var polls = 0
    while true {
      polls += 1
      let outcome = try await api.token(grant: Self.grantType, ["device_code": .string(deviceCode)])
      guard case .protocolError(let error, _) = outcome, !once else { return Self.counting(outcome, polls: polls) }
      switch error.code {
      case "authorization_pending": break
      case "slow_down": interval = min(interval + 5, 3600)
      default: return Self.counting(outcome, polls: polls)
      }
      guard clock.now - start + .seconds(interval) <= timeout else { return Self.counting(outcome, polls: polls) }
      do {
        try await Task.sleep(for: .seconds(interval))
      } catch {
        throw .flow("the device polling was cancelled")
      }
    }
  }

  /// The outcome with `polls` added to its result.
  private static func counting(_ outcome: ActionOutcome, polls: Int) -> ActionOutcome {
    switch outcome {
    case .success(let value):
      var members = value.objectValue ?? [:]
      members["polls"] = .int(polls)
      return .success(.object(members))
    case .protocolError(let error, let result):
      var members = result.objectValue ?? [:]
      members["polls"] = .int(polls)
      return .protocolError(error, result: .object(members))
    }
  }
}
