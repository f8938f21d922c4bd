public import AuthFlowCore
public import AuthFlowScenario

/// `wait: 2s` — pauses the branch it is on (other branches go on).
public struct WaitAction: Action {
  static let forParameter = Parameter<Duration>("for", required: true, summary: "How long to wait, e.g. 2s, 500ms.")

  public static let signature = ActionSignature(
    name: "wait", summary: "Pause this branch of the flow for a duration.",
    declaring: [Self.forParameter],
    scalarForm: ParameterSignature("for", .duration, required: true, summary: "How long to wait."),
    results: .closed([ResultField("waited_ms", "How long the step waited, in milliseconds.")]))

  public static let documentation = """
    Pauses the steps that depend on this one for the given duration; independent branches keep
    running. Use it for real-time waits against real tenants; against the mock, prefer
    `mock_clock`, which moves the mock's virtual clock instead of waiting.
    The scalar form `wait: 2s` is short for `wait: { for: 2s }`.
    """

  public static let example = """
    scenario: Wait between two steps
    steps:
      - id: pause
        wait: 50ms
        expect:
          waited_ms: { gte: 50 }
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: wait takes a duration
      steps:
        - id: fails
          wait: { for: "${{ 'a while' }}" }
      """)

  public static let traits = ActionTraits(
    failures: [.invalidParameter], timeout: .sleeps(parameter: Self.forParameter.name))

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let duration: Duration
    if parameters.objectValue == nil, !parameters.isNull {
      // The short form names no parameter: its message names the action.
      duration = try Parameters.duration(
        parameters, for: Self.signature.name, maximum: Self.forParameter.signature.maximumDuration)
    } else if let value = try Parameters(parameters)[Self.forParameter] {
      duration = value
    } else {
      throw .invalidParameter(Self.forParameter, "is required, e.g. `wait: 2s`")
    }
    do {
      try await Task.sleep(for: duration)
    } catch {
      throw ActionError(.flow, "the wait was cancelled")
    }
    let milliseconds = Int(duration.seconds * 1000)
    return .success(["waited_ms": .int(milliseconds)])
  }
}
