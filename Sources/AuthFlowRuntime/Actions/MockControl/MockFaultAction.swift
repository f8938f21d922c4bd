public import AuthFlowCore
public import AuthFlowScenario

/// `mock_fault` — makes the mock tenant fail on purpose: an error status, a delay, a dropped
/// connection or a malformed body, for the requests to one endpoint.
public struct MockFaultAction: Action {
  public static let kinds = ["status", "delay", "drop", "malformed"]

  static let endpoint = Parameter<String>(
    "endpoint", summary: "Path prefix the fault applies to, e.g. /oauth/token (required unless `clear`).")
  static let kind = Parameter<String>("kind", .oneOf(kinds), summary: "What goes wrong (required unless `clear`).")
  static let status = Parameter<Int>(
    "status", summary: "status: the HTTP status (default 503); malformed: the status of the bad body (200).")
  static let delay = Parameter<Duration>("delay", summary: "delay: how long the mock waits before answering.")
  static let count = Parameter<Int>("count", summary: "How many requests it hits, then it is gone (default: all).")
  static let probability = Parameter<Value>(
    "probability", .number, summary: "The chance (0 to 1) that a request is hit (default 1).")
  static let clear = Parameter<Bool>("clear", summary: "true: remove every fault instead.")

  public static let signature = ActionSignature(
    name: "mock_fault",
    summary: "Inject a fault into the mock tenant (status, delay, dropped connection, malformed body), or clear them.",
    declaring: [Self.endpoint, Self.kind, Self.status, Self.delay, Self.count, Self.probability, Self.clear],
    results: .closed([
      ResultField("id", "The fault's id at the mock.", type: .int), ResultField("endpoint", "The path prefix it hits."),
      ResultField("kind", "`status`, `delay`, `drop` or `malformed`."),
      ResultField("status", "The status it answers with."),
      ResultField("delay_ms", "How long it delays, in milliseconds.", type: .int),
      ResultField("count", "How many requests it still hits (absent: all)."),
      ResultField("probability", "The chance that a request is hit.", type: .number),
      ResultField("cleared", "With `clear: true`: true.", type: .bool),
    ]))

  public static let documentation = """
    Sends `POST /__mock/faults` (requires `mock_control`). Requests whose path starts with
    `endpoint` then: `status` — answer `{"error":"injected_fault",…}` with `status` (default 503);
    `delay` — wait `delay`, then answer normally; `drop` — the connection is closed before a
    complete response, so the client sees a connection error (an environment failure, exit 3);
    `malformed` — a JSON content type with a body that is not JSON. `count` limits how many
    requests are hit; `probability` hits each request with that chance. `/__mock/` itself is never
    faulted. `clear: true` sends `DELETE /__mock/faults`. The result: the fault as the mock holds
    it (`id`, `endpoint`, `kind`, `status`, `delay_ms`, `count`, `probability`), or `cleared: true`.
    Faults hit every client of the mock: when other scenarios run concurrently, target an endpoint
    only this scenario calls, give a `count`, and clear in `cleanup`. A reset of the mock clears
    them too.
    """

  public static let example = """
    scenario: The mock answers 503 once, then recovers
    requires: [mock_control]
    client: native
    steps:
      - id: fault
        mock_fault: { endpoint: /userinfo, kind: status, status: 503, count: 1 }
        expect: { kind: status, status: 503, count: 1 }
      - id: failing
        http: { url: userinfo }
        expect: { status: 503, body.error: injected_fault }
      - id: recovered
        http: { url: userinfo }
        expect: { status: 401 }
      - id: slow
        mock_fault: { endpoint: /userinfo, kind: delay, delay: 200ms, count: 1 }
        expect: { delay_ms: 200 }
    cleanup:
      - mock_fault: { clear: true }
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: A fault's endpoint is a path
      requires: [mock_control]
      steps:
        - id: fails
          mock_fault: { endpoint: "${{ 'oauth/token' }}", kind: status }
      """)

  public static let traits = ActionTraits(
    capabilities: ["mock_control"], failures: [.environment, .flow, .invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let control = try MockControl(context, action: "mock_fault")
    if try input[Self.clear] == true {
      try await control.clearFaults()
      return .success(.object(["cleared": .bool(true)]))
    }
    let endpoint = try input.required(Self.endpoint)
    guard endpoint.hasPrefix("/") else { throw .invalidParameter(Self.endpoint, MockFaultMessages.endpoint) }
    let kind = try input.required(Self.kind)
    var fault: [String: Value] = ["endpoint": .string(endpoint), "kind": .string(kind)]
    if let status = try input[Self.status] {
      guard (200...599).contains(status) else { throw .invalidParameter(Self.status, MockFaultMessages.status) }
      fault["status"] = .int(status)
    }
    if let delay = try input[Self.delay] {
      let milliseconds = Int(delay.seconds * 1000)
      guard (0...60_000).contains(milliseconds) else { throw .invalidParameter(Self.delay, MockFaultMessages.delay) }
      fault["delay_ms"] = .int(milliseconds)
    } else if kind == "delay" {
      throw .invalidParameter(Self.delay, MockFaultMessages.delayRequired)
    }
    if let count = try input[Self.count] {
      guard count >= 1 else { throw .invalidParameter(Self.count, MockFaultMessages.count) }
      fault["count"] = .int(count)
    }
    if let member = try input[Self.probability] {
      guard let probability = member.doubleValue, (0...1).contains(probability) else {
        throw .invalidParameter(Self.probability, MockFaultMessages.probability)
      }
      fault["probability"] = .double(probability)
    }
    return .success(.object(try await control.addFault(fault)))
  }
}

/// The messages of `mock_fault`.
enum MockFaultMessages {
  static let endpoint = "expected a path starting with /, e.g. /oauth/token"
  static let status = "expected an HTTP status from 200 to 599"
  static let delay = "expected a delay of at most 60s"
  static let delayRequired = "is required for kind delay"
  static let count = "expected at least 1"
  static let probability = "expected a number from 0 to 1"
}
