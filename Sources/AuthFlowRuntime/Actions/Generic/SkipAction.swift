public import AuthFlowCore
public import AuthFlowScenario

/// `skip` — ends the scenario here as skipped, with the reason: what the scenario needs was found
/// missing while it ran (the OpenID conformance suite's `fireTestSkipped`).
public struct SkipAction: Action {
  static let reason = Parameter<String>(
    "reason", required: true, summary: "Why the scenario cannot be tested on this tenant.", isFreeText: true)

  public static let signature = ActionSignature(
    name: "skip", summary: "End the scenario as skipped, with the reason (guard it with `if:`).",
    declaring: [Self.reason], scalarForm: Self.reason,
    results: .closed([ResultField("reason", "The reason given.")]))

  public static let documentation = """
    Ends the scenario at this step as **skipped**, with `reason` as its skip reason: the steps not
    yet started are skipped ("the scenario was skipped at step 'ID'"), `cleanup` still runs, and
    the scenario counts as skipped — unless a step before it failed or hit an environment error,
    which then decides (a failure is never turned into a skip). Guard it with `if:` for what a
    scenario can only learn by running: a scope discovery does not list, no refresh token issued,
    an `error=request_not_supported`. `--fail-on-skip` fails such a run as it does any skip.
    The short form `skip: REASON` is `skip: { reason: REASON }`.
    """

  public static let example = """
    scenario: Skip what the tenant cannot do
    steps:
      - id: discovery
        http: { url: .well-known/openid-configuration }
      - id: no_phone
        if: ${{ !contains(default(steps.discovery.body.scopes_supported, []), 'phone') }}
        skip: discovery does not list the scope phone
      - id: checked
        assert: ${{ contains(steps.discovery.body.scopes_supported, 'phone') }}
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: skip takes a reason
      steps:
        - id: fails
          skip: { reason: "${{ [1, 2] }}" }
      """)

  public static let traits = ActionTraits(failures: [.invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters.objectValue == nil ? ["reason": parameters] : parameters)
    let reason = try input.required(Self.reason)
    context.findings.skipScenario(because: reason)
    return .success(["reason": .string(reason)])
  }
}
