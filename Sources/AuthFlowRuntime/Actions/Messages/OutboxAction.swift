public import AuthFlowCore
import AuthFlowExpression
public import AuthFlowScenario

/// `outbox` — reads the newest message the tenant sent to an address (code, magic link, invitation).
public struct OutboxAction: Action {
  static let to = Parameter<String>("to", required: true, summary: "The email address or phone number.")
  static let channel = Parameter<String>(
    "channel", .oneOf(["email", "sms"]), summary: "Only messages of this channel.")
  static let subject = Parameter<String>(
    "subject", summary: "Only messages whose subject matches this pattern (the dialect of `matches()`).")
  static let after = Parameter<String>(
    "after", .step,
    summary: "Only messages received after this earlier step started (its id, as written).")
  static let minCount = Parameter<Int>(
    "min_count", summary: "Wait until at least this many messages were sent to it (default 1).")
  static let timeout = Parameter<Duration>("timeout", summary: "How long to poll for them (default 5s).")

  public static let signature = ActionSignature(
    name: "outbox", summary: "Read the newest email or SMS sent to an address: its code, link or invitation.",
    declaring: [Self.to, Self.channel, Self.subject, Self.after, Self.minCount, Self.timeout],
    results: .closed([
      ResultField("id", "The message id."), ResultField("to", "The address."),
      ResultField("sent_at", "When it was sent."), ResultField("channel", "`email` or `sms`."),
      ResultField("subject", "The subject."), ResultField("body", "The text."),
      ResultField.secret("code", "The one-time code."), ResultField.secret("link", "The link."),
      ResultField.secret("invitation", "For invitation links: the invitation ticket."),
      ResultField.secret(
        "ticket", "For links that carry one (password reset, email verification, unblock): the `ticket` parameter."),
      ResultField("organization", "For invitation links: the organization id."),
      ResultField("organization_name", "For invitation links: its name."),
      ResultField("count", "How many messages were sent to the address (after `after`, when given)."),
    ]))

  public static let documentation = """
    Polls the tenant's inbox (requires `inbox`: the mock's outbox, or the `inbox:` of the tenant's
    profile — an SMTP receiver started for the run, or an `authflow inbox`; docs/messages.md)
    every 100 ms until at least `min_count` messages were sent to `to` (of `channel`, with a
    subject matching `subject`, and received after the step `after` started, when given), for at
    most `timeout`, and returns the newest: `to`, `channel`, `subject`, `body`, `code` (the
    one-time code), `link`, its `ticket` (password reset, email verification and unblock links),
    and, for invitation links, `invitation`, `organization` and `organization_name`; `count` is
    how many such messages were sent to the address. The code and link are cut out by the inbox's
    `patterns`, else by the built-in ones (Auth0's default templates: a run of 4 to 8 digits, the
    first URL). Codes, links and tickets are secrets. No message in time fails the step, naming
    the subjects that did arrive; an inbox that cannot be read is an environment failure.

    `after: STEP` keeps only what arrived once that earlier step had started — the message a
    resend sent, not the first one. Before STEP runs, authflow notes the id of the inbox's newest
    message (every source numbers messages as they arrive: the mock's outbox, an `authflow inbox`,
    an IMAP mailbox's UIDs), and `outbox` keeps the messages with a larger id; no clocks are
    compared (the mock's is virtual, a mail server keeps its own). STEP must run before this step
    (the validator checks it like a `steps.X` reference); one its `if:` skipped fails this step.
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
      requires: [inbox]
      steps:
        - id: fails
          outbox: { to: nobody@example.com, timeout: 300ms }
      """)

  public static let traits = ActionTraits(
    capabilities: [TenantInbox.capability], failures: [.environment, .flow, .invalidParameter],
    timeout: .polls(parameter: Self.timeout.name, defaultLimit: .seconds(5)),
    inboxMarkParameter: Self.after.name)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let address = try input.required(Self.to)
    let minimum = max(1, try input[Self.minCount] ?? 1)
    let timeout = try input[Self.timeout] ?? .seconds(5)
    let channel = try input[Self.channel]
    var subject: RegexPattern? = nil
    if let text = try input[Self.subject] {
      do {
        subject = try RegexPattern(text)
      } catch {
        throw .invalidParameter(Self.subject, OutboxMessages.badSubjectPattern(error))
      }
    }
    let mailbox = try TenantMailbox(context, action: Self.signature.name)
    var afterID: Int? = nil
    if let step = try input[Self.after] {
      switch await context.state.inboxMarks[step] {
      case .lastID(let id)?: afterID = id
      case .unreadable(let reason)?: throw .environment(OutboxMessages.unmarked(step, reason: reason))
      case nil: throw .flow(OutboxMessages.notStarted(step))
      }
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      let all = try await mailbox.messages(to: address)
      let messages = all.filter { message in
        (channel == nil || message["channel"]?.stringValue == channel)
          && (subject?.matches(message["subject"]?.stringValue ?? "") ?? true)
          && (afterID.map { (message["id"]?.intValue ?? 0) > $0 } ?? true)
      }
      if messages.count >= minimum, let newest = messages.last {
        return .success(.object(MessageContents.result(newest, count: messages.count)))
      }
      guard clock.now < deadline else {
        throw .flow(
          OutboxMessages.nothingArrived(
            minimum: minimum, found: messages.count, within: timeout, arrived: all.map(OutboxMessages.summary)))
      }
      do {
        try await Task.sleep(for: mailbox.pollInterval)
      } catch {
        throw .flow(OutboxMessages.cancelled)
      }
    }
  }
}

/// The messages of `outbox`.
enum OutboxMessages {
  static let cancelled = "reading the outbox was cancelled"

  static func nothingArrived(minimum: Int, found: Int, within timeout: Duration, arrived: [String] = []) -> String {
    let base =
      "expected at least \(Plural.count(minimum, "message")) to the address within \(DurationText.format(timeout)), found \(found)"
    guard arrived.count > found else { return base }
    let shown = arrived.suffix(5).joined(separator: "; ")
    return base + " (to the address: \(shown))"
  }

  /// A message that arrived, as a failure names it: its channel and subject (never its text).
  static func summary(_ message: [String: Value]) -> String {
    let channel = message["channel"]?.stringValue ?? "email"
    let subject = message["subject"]?.stringValue ?? ""
    return subject.isEmpty ? channel : "\(channel) '\(subject.prefix(80))'"
  }

  static func notStarted(_ step: String) -> String {
    "`after: \(step)` reads what arrived after step '\(step)' started, but it did not run (its `if:` was false)"
  }

  static func unmarked(_ step: String, reason: String) -> String {
    "the inbox could not be read when step '\(step)' started, so nothing can be told to have arrived after it: "
      + reason
  }

  static func badSubjectPattern(_ error: RegexSyntaxError) -> String {
    "is not a pattern authflow reads: \(error.message)"
  }
}
