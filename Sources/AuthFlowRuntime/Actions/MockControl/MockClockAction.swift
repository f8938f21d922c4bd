public import AuthFlowCore
public import AuthFlowScenario

/// `mock_clock` — moves the mock tenant's virtual clock (and the scenario's clock) forward.
public struct MockClockAction: Action {
  static let advance = Parameter<Value>(
    "advance", .clockShift, required: true, summary: "How far, e.g. 5m, 2h, or -5m to go back.")

  public static let signature = ActionSignature(
    name: "mock_clock", summary: "Advance the mock tenant's virtual clock (codes, tokens and sessions expire).",
    declaring: [
      Self.advance
    ],
    scalarForm: ParameterSignature("advance", .clockShift, required: true, summary: "How far."),
    results: .closed([
      ResultField("now", "The mock's virtual time, epoch seconds."), ResultField("iso", "The same, ISO 8601."),
      ResultField("offset", "How far the virtual clock is from real time, in seconds."),
    ]))

  public static let documentation = """
    Sends `POST /__mock/clock/advance` (requires `mock_control`): every expiry in the mock reads
    its virtual clock, so codes, MFA tokens and access tokens expire without waiting. The
    scenario's own clock (`now()`, credentials' `expires_at`, the Credentials Manager) moves by the
    same amount. A negative duration (`-5m`) moves it back. The result: `now` and `iso`, the
    mock's virtual time. The mock's clock is shared by the scenarios of a run, so the runner runs a
    scenario with a `mock_clock` step alone (no other scenario runs meanwhile) and puts the clock
    back when it ends; no `cleanup` is needed for that.
    """

  public static let example = """
    scenario: The mock's clock moves forward and back
    requires: [mock_control]
    steps:
      - id: forward
        mock_clock: 10m
      - id: back
        mock_clock: { advance: -10m }
        expect:
          now: { lt: "${{ steps.forward.now }}" }
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: The clock moves by a duration only
      requires: [mock_control]
      steps:
        - id: fails
          mock_clock: { advance: "${{ 'later' }}" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["mock_control"], failures: [.environment, .flow, .invalidParameter], mockClock: .movesExclusively)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let duration: Duration
    if parameters.objectValue == nil, !parameters.isNull {
      duration = try Self.duration(parameters)
    } else if let member = try Parameters(parameters)[Self.advance] {
      duration = try Self.duration(member)
    } else {
      throw .invalidParameter(Self.advance, "expected a duration such as 5m, 2h or -5m")
    }
    let control = try MockControl(context, action: "mock_clock")
    let result = try await control.advanceClock(by: duration.seconds)
    await context.advanceClock(by: duration.seconds)
    return .success(.object(result))
  }

  /// A duration of at most ``InputLimits/longestClockShift`` either way, negative when written
  /// with a leading `-`.
  static func duration(_ value: Value) throws(ActionError) -> Duration {
    let negative = value.stringValue?.hasPrefix("-") ?? false
    let magnitude: Value = negative ? .string(String(value.stringValue?.dropFirst() ?? "")) : value
    switch DurationText.read(magnitude, maximum: InputLimits.longestClockShift) {
    case .duration(let duration): return negative ? .zero - duration : duration
    case .tooLong: throw .durationTooLong("advance", maximum: InputLimits.longestClockShift, signed: true)
    case .invalid: throw .invalidParameter(Self.advance, "expected a duration such as 5m, 2h or -5m")
    }
  }
}
