public import AuthFlowCore
public import AuthFlowScenario

/// `web_auth`'s own result fields, declared once: its signature lists them (after the
/// credentials) and code that reads a `web_auth` result — `doctor --probe` — reads it through
/// them, so the shape it reads is the shape the action declares.
public struct WebAuthResult: Sendable {
  public static let authorizeURL = ResultField("authorize_url", "The `/authorize` URL sent.")
  public static let authorizeParameters = ResultField("authorize_parameters", "Its query parameters, by name.")
  public static let pages = ResultField("pages", "The kinds of the pages visited, in order.")
  public static let page = ResultField(
    "page",
    "Where the browser stopped (`stop_at`, an error page): `page.kind`, `page.url`, `page.fields`, `page.error`.")

  public static let code = ResultField.secret(
    "code", "With `stop_at: callback`: the authorization code the callback carries (a secret).")
  public static let codeVerifier = ResultField.secret(
    "code_verifier",
    "With `stop_at: callback`: the PKCE verifier of the request (a secret), to redeem `code` with a `token` step.")

  public static let authorizationResponse = ResultField(
    "authorization_response",
    "The callback's parameters (query and fragment): `code` (secret), `state`, `iss`, `error`, … — what the "
      + "provider answered the authorization request.", type: .any)

  public static let callbackURI = ResultField(
    "callback_uri",
    "Where the provider sent the authorization response: the callback URL without its query and fragment "
      + "(which redirect URI the provider used).")

  public static let authorizationIDToken = ResultField(
    "authorization_id_token",
    "A hybrid flow's (`code id_token`, `code id_token token`) ID token of the authorization response, "
      + "validated as the token endpoint's is (with `c_hash` and `at_hash`): `.claims`, `.header`.",
    type: .any)

  /// The fields `web_auth` declares besides the credentials.
  public static let fields = [
    authorizeURL, authorizeParameters, pages, page, authorizationResponse, callbackURI, authorizationIDToken, code,
    codeVerifier,
  ]

  /// A step's result.
  public var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  /// The kinds of the pages visited, in order (`callback` last when the flow reached it).
  public var pageKinds: [String] {
    value.member(Self.pages.name)?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  /// The kind of the page the browser stopped on, when it stopped on one.
  public var stoppedAtKind: String? {
    value.member(Self.page.name)?.member(PageResult.Member.kind)?.stringValue
  }

  /// The URL of the page the browser stopped on (the callback's carries the code).
  public var stoppedAtURL: String? {
    value.member(Self.page.name)?.member(PageResult.Member.url)?.stringValue
  }
}

extension Value {
  /// A step result's `error.code`, when the action answered with a protocol error.
  public var protocolErrorCode: String? {
    member(ResultField.error.name)?.member("code")?.stringValue
  }

  /// A step result's `error.description`, when the action answered with a protocol error.
  public var protocolErrorDescription: String? {
    member(ResultField.error.name)?.member("description")?.stringValue
  }
}
