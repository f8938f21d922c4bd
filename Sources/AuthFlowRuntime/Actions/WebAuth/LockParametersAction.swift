public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// `lock_parameters` — Lock v1's `A0AuthParameters` encoded as `asAPIPayload` (docs/protocol.md §10).
public struct LockParametersAction: Action {
  static let parameters = Parameter<[String: Value]>(
    "parameters", summary: "scope, device, connection_scopes, state, nonce, offline_mode, …")
  static let connection = Parameter<String>(
    "connection", summary: "The current connection (picks its `connection_scopes` entry).")

  public static let signature = ActionSignature(
    name: "lock_parameters", summary: "Encode Lock v1 authentication parameters as Lock sends them.",
    declaring: [Self.parameters, Self.connection],
    results: .closed([
      ResultField("payload", "The parameters, by name."), ResultField("query", "The encoded query string."),
    ]))

  public static let documentation = """
    Encodes Lock's parameters: `scope` (default `openid offline_access`, a list is space-joined),
    `device` (only with `offline_access`; default `authflow`), `connection_scopes` reduced to the
    current connection's entry as `connection_scope` (comma-joined), every other key verbatim.
    Result: `payload` (name → value) and `query` (the encoded query string). `web_auth` takes the
    same mapping as `lock` and sends it to `/authorize`.
    """

  public static let example = """
    scenario: Lock sends only the current connection's scopes
    steps:
      - id: encode
        lock_parameters:
          connection: github
          parameters:
            connection_scopes: { github: [repo, gist], google-oauth2: [drive] }
        expect:
          payload.scope: openid offline_access
          payload.connection_scope: repo,gist
          payload.device: authflow
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: Lock parameters must be a mapping
      steps:
        - id: fails
          lock_parameters: { parameters: "${{ 'scope=openid' }}" }
      """)

  public static let traits = ActionTraits(failures: [.invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let pairs = LockParameters(try input[Self.parameters] ?? [:]).payload(
      connection: try input[Self.connection])
    return .success(
      .object([
        "payload": .object(
          Dictionary(pairs.map { ($0.0, Value.string($0.1)) }, uniquingKeysWith: { first, _ in first })),
        "query": .string(URLParameters(pairs).queryString()),
      ]))
  }
}
