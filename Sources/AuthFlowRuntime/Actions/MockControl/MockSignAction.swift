public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// `mock_sign` — a token signed by the mock tenant's key with any header and claims (mock only:
/// `POST /__mock/sign`), to build ID tokens that break one validation rule each.
public struct MockSignAction: Action {
  static let claims = Parameter<[String: Value]>(
    "claims", summary: "Claims, over the defaults (iss, sub, aud, iat, exp).")
  static let header = Parameter<[String: Value]>(
    "header", summary: "Header members over `{alg: RS256, kid, typ: JWT}`.")
  static let omit = Parameter<Value>("omit", .array(of: .string), summary: "Claims to remove.")
  static let defaults = Parameter<Bool>("defaults", summary: "Fill iss/sub/aud/iat/exp (default true).")
  static let variant = Parameter<String>(
    "variant", .oneOf(["valid", "none", "hs256", "bad_signature"]), summary: "Default `valid`.")

  public static let signature = ActionSignature(
    name: "mock_sign", summary: "Have the mock tenant sign arbitrary header and claims (test control).",
    declaring: [Self.claims, Self.header, Self.omit, Self.defaults, Self.variant],
    results: .closed([ResultField.secret("token", "The signed token, a JWT value.")]))

  public static let documentation = """
    Asks the mock (`POST /__mock/sign`) for a compact JWS. By default the claims are a valid ID
    token for the scenario's client (issuer, `sub` of alice, `aud` = client ID, `iat`/`exp` from the
    mock's clock); `claims` override, `omit` removes. `variant` gives `alg: none` (empty
    signature), `HS256` (HMAC with a mock secret), or a corrupted RS256 signature; a `header.kid`
    the tenant does not publish gives an unknown-kid token. Result: `token` (a JWT value).
    Only the mock tenant has this endpoint (capability `mock_control`).
    """

  public static let example = """
    scenario: The mock signs a token with a chosen nonce
    client: native
    steps:
      - id: token
        mock_sign:
          claims: { nonce: abc }
        expect:
          token.claims.nonce: abc
          token.header.alg: RS256
    """

  public static let failingExample = FailingExample(
    .flow,
    scenario: """
      scenario: Only a tenant with mock control signs tokens
      requires: [mock_control]
      steps:
        - id: fails
          mock_sign: { variant: "${{ 'rot13' }}" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["mock_control"], failures: [.environment, .flow, .invalidParameter], mockClock: .reads)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    var body: [String: Value] = [:]
    for parameter in Self.signature.parameters { body[parameter.name] = input.raw(parameter) }
    body["client_id"] = context.client.clientID.map(Value.string)
    let request = HTTPRequest.json(.post, url: try AuthenticationAPI(context).url("__mock/sign"), body: .object(body))
    let response: HTTPResponse
    do {
      response = try await context.transport.send(request)
    } catch {
      throw .environment(WebAuthMessages.unreachable(error.message))
    }
    guard response.status == 200, let token = response.jsonValue?.member("token")?.stringValue else {
      throw .flow(Self.notSigned(status: response.status))
    }
    context.secrets.register(secretsIn: .secret(.string(token)))
    return .success(.object(["token": JWTValue(raw: token).map(Value.jwt) ?? Value.string(token).asSecret]))
  }

  static func notSigned(status: Int) -> String {
    "the tenant did not sign the token (HTTP \(status)); `mock_sign` needs the mock tenant's /__mock/sign"
  }
}
