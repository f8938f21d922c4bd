public import AuthFlowCore
public import AuthFlowScenario

/// `review` — asks a person to confirm what no machine can: the scenario passes its automatic
/// checks, and the reports mark it for review with what to look at (the OpenID conformance suite's
/// screenshot placeholders, whose modules end in REVIEW).
public struct ReviewAction: Action {
  static let reason = Parameter<String>(
    "reason", required: true, summary: "What a person must confirm.", isFreeText: true)
  static let evidence = Parameter<Value>(
    "evidence", summary: "What to look at: a page, a URL, a value; kept in the step's result and the reports.")

  public static let signature = ActionSignature(
    name: "review", summary: "Mark the scenario for a person to review, with what to look at.",
    declaring: [Self.reason, Self.evidence], scalarForm: Self.reason,
    results: .closed([
      ResultField("reason", "What a person must confirm."),
      ResultField("evidence", "What to look at (secrets stay masked).", type: .any),
    ]))

  public static let documentation = """
    Records what a person must confirm that no check can — a login page shown again for
    `prompt=login`, an error page the provider rendered instead of redirecting — with the
    `evidence` to look at (a `page`, a URL). The step passes; the scenario is reported **for
    review**, with the warnings ("for review: REASON"): on the console, in JUnit's `<system-out>`,
    as a GitHub `::warning`, in the JSON report as a problem of kind `review` (severity
    `warning`), and the plan table of the HTML and JSON reports shows `review`, never `passed`. The
    exit code is not changed (a review is not a failure), so a pipeline that must not pass
    unreviewed modules reads the JSON report.
    The short form `review: REASON` is `review: { reason: REASON }`.
    """

  public static let example = """
    scenario: A page for a person to look at
    client: native
    steps:
      - id: page
        web_auth: { stop_at: login }
      - review:
          reason: the login page is the tenant's branded page
          evidence: ${{ steps.page.page.url }}
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: review takes a reason
      steps:
        - id: fails
          review: { reason: "${{ [1, 2] }}" }
      """)

  public static let traits = ActionTraits(failures: [.invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters.objectValue == nil ? ["reason": parameters] : parameters)
    let reason = try input.required(Self.reason)
    context.findings.requestReview(reason)
    return .success(["reason": .string(reason), "evidence": try input[Self.evidence] ?? .null])
  }
}
