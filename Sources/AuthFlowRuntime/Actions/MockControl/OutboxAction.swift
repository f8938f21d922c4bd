public import AuthFlowCore
public import AuthFlowScenario

/// `outbox` — reads the newest message the tenant sent to an address (code, magic link, invitation).
public struct OutboxAction: Action {
  static let to = Parameter<String>("to", required: true, summary: "The email address or phone number.")
  static let minCount = Parameter<Int>(
    "min_count", summary: "Wait until at least this many messages were sent to it (default 1).")
  static let timeout = Parameter<Duration>("timeout", summary: "How long to poll for them (default 5s).")

  public static let signature = ActionSignature(
    name: "outbox", summary: "Read the newest email or SMS sent to an address: its code, link or invitation.",
    declaring: [Self.to, Self.minCount, Self.timeout],
    results: .closed([
      ResultField("id", "The message id."), ResultField("to", "The address."),
      ResultField("sent_at", "When it was sent."), ResultField("channel", "`email` or `sms`."),
      ResultField("subject", "The subject."), ResultField("body", "The text."),
      ResultField.secret("code", "The one-time code."), ResultField.secret("link", "The link."),
      ResultField.secret("invitation", "For invitation links: the invitation ticket."),
      ResultField("organization", "For invitation links: the organization id."),
      ResultField("organization_name", "For invitation links: its name."),
      ResultField("count", "How many messages were sent to the address."),
    ]))

  public static let documentation = """
    Polls the tenant's mailbox (the mock's `/__mock/outbox`; requires `mock_control`) every
    100 ms until at least `min_count` messages were sent to `to`, for at most `timeout`, and
    returns the newest: `to`, `channel`, `subject`, `body`, `code` (the one-time code), `link`,
    and, for invitation links, `invitation`, `organization` and `organization_name`; `count` is
    how many messages were sent to the address. Codes and links are secrets. No message in time
    fails the step.
    """

  public static let example = """
    scenario: A passwordless code arrives in the outbox
    client: native
    vars:
      email: ${{ random_email() }}
    steps:
      - id: start
        passwordless_start: { email: "${{ vars.email }}" }
      - id: mail
        outbox: { to: "${{ vars.email }}" }
        expect:
          channel: email
          code: { matches: "^[0-9]{6}$" }
          count: 1
    """

  /// How often the mailbox is read while waiting.
  public static let failingExample = FailingExample(
    .flow,
    scenario: """
      scenario: Nothing arrives for an address nobody wrote to
      requires: [mock_control]
      steps:
        - id: fails
          outbox: { to: nobody@example.com, timeout: 300ms }
      """)

  public static let traits = ActionTraits(
    capabilities: ["mock_control"], failures: [.environment, .flow, .invalidParameter],
    timeout: .polls(parameter: Self.timeout.name, defaultLimit: .seconds(5)))

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let address = try input.required(Self.to)
    let minimum = max(1, try input[Self.minCount] ?? 1)
    let timeout = try input[Self.timeout] ?? .seconds(5)
    let mailbox = MockOutbox(control: try MockControl(context, action: "outbox"))
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      let messages = try await mailbox.messages(to: address)
      if messages.count >= minimum, let newest = messages.last {
        return .success(.object(MessageContents.result(newest, count: messages.count)))
      }
      guard clock.now < deadline else {
        throw .flow(OutboxMessages.nothingArrived(minimum: minimum, found: messages.count, within: timeout))
      }
      do {
        try await Task.sleep(for: MockOutbox.pollInterval)
      } catch {
        throw .flow(OutboxMessages.cancelled)
      }
    }
  }
}

/// The messages of `outbox`.
enum OutboxMessages {
  static let cancelled = "reading the outbox was cancelled"

  static func nothingArrived(minimum: Int, found: Int, within timeout: Duration) -> String {
    "expected at least \(Plural.count(minimum, "message")) to the address within \(DurationText.format(timeout)), found \(found)"
  }
}
