public import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
public import AuthFlowScenario

/// `web_auth` — Web Auth as Auth0.swift does it: `/authorize` with PKCE, state and nonce, the
/// Universal Login pages through a named browser, the callback, the code exchange and ID-token
/// validation.
public struct WebAuthAction: Action {
  static let login = Parameter<[String: Value]>(
    "login", summary: "Login form values: `email` (or `username`), `password`.",
    formValues: FormFieldMapping.loginValues)
  static let signup = Parameter<[String: Value]>(
    "signup", summary: "Signup form values: `email`, `password`, …", formValues: FormFieldMapping.signupValues)
  static let passwordless = Parameter<[String: Value]>(
    "passwordless",
    summary:
      "Passwordless page values (`connection: email`/`sms`): `email` or `phone_number`; `code` (default: read from the mock's outbox).",
    formValues: FormFieldMapping.passwordlessValues)
  static let scope = Parameter<String>("scope", summary: "Default `openid profile email`; `openid` always added.")
  static let audience = Parameter<String>("audience", summary: "API identifier.")
  static let connection = Parameter<String>("connection", summary: "Connection name (skips the login page choice).")
  static let connectionScope = Parameter<String>(
    "connection_scope", summary: "IdP scopes for the connection, sent as given.")
  static let organization = Parameter<String>(
    "organization", summary: "Organization ID (`org_…`) or name; validated in the ID token.")
  static let organizationPrompt = Parameter<String>(
    "organization_prompt",
    summary: "The organization name typed into the organization prompt page, when the client requires one.")
  static let invitationURL = Parameter<String>(
    "invitation_url", summary: "An invitation link: its `organization` and `invitation` are sent.")
  static let maxAge = Parameter<Int>("max_age", summary: "Seconds; requires `auth_time` in the ID token.")
  static let parameters = Parameter<[String: Value]>(
    "parameters",
    summary:
      "Extra /authorize parameters (prompt, screen_hint, login_hint, …); they override the defaults; `null` removes one (`nonce: null`)."
  )
  static let responseType = Parameter<String>(
    "response_type",
    .oneOf([
      "code", "token", "id_token", "id_token token", "token id_token", "code id_token", "code token",
      "code id_token token",
    ]),
    summary:
      "Default `code`; `id_token`, `token` and their pair are the implicit flow, `code` with them the hybrid flow.")
  static let stopAt = Parameter<String>(
    "stop_at",
    .oneOf(["login", "signup", "mfa", "consent", "organization", "passwordless", "passwordless_code", "callback"]),
    summary: "Stop on that page and return it as `page`.")
  static let browser = Parameter<String>(
    "browser",
    summary:
      "The named browser (cookie jar) to use; steps naming the same one share the SSO session. `chromium` (or `html`) instead picks the driver for this step, with the default jar (docs/browser.md)."
  )
  static let redirectURI = Parameter<String>("redirect_uri", summary: "Default: the client profile's `redirect_uri`.")
  static let leeway = Parameter<Int>(
    "leeway",
    summary: "ID-token leeway in seconds (default 60; Auth0.swift's 60000 is a quirk, docs/id-token-validation.md).")
  static let validateIDToken = Parameter<Bool>("validate_id_token", summary: "Default true.")
  static let telemetry = Parameter<Bool>(
    "telemetry", summary: "Send `auth0Client` and `Auth0-Client` (default true; never sent to `oidc` tenants).")
  static let lock = Parameter<[String: Value]>(
    "lock", summary: "Lock v1 parameters (docs/protocol.md §10), encoded and sent to /authorize.")
  static let method = Parameter<String>(
    "method", .oneOf(["GET", "POST"]),
    summary: "How the authorization request is sent: GET (default) or POST, form-encoded (OIDC Core §3.1.2.1).")
  static let requestObject = Parameter<[String: Value]>(
    "request_object",
    summary:
      "`{}`: the parameters in an unsigned request object (`request`, alg none, OIDC Core §6.1), response_type, client_id, scope and redirect_uri repeated outside; `{ outside: { NAME: VALUE } }` sends those outside instead."
  )
  static let tokenEndpointAuthMethod = Parameter<String>(
    "token_endpoint_auth_method", .oneOf(["client_secret_basic", "client_secret_post", "none"]),
    summary: "How the client authenticates the code exchange, instead of the client profile's method.")

  public static let signature = ActionSignature(
    name: "web_auth", summary: "Log in through /authorize and Universal Login, as Auth0.swift's Web Auth.",
    declaring: [
      Self.login, Self.signup, Self.passwordless, Self.scope, Self.audience, Self.connection, Self.connectionScope,
      Self.organization, Self.organizationPrompt, Self.invitationURL, Self.maxAge, Self.parameters, Self.responseType,
      Self.stopAt, Self.browser, Self.redirectURI, Self.leeway, Self.validateIDToken, Self.telemetry, Self.lock,
      Self.method, Self.requestObject, Self.tokenEndpointAuthMethod,
    ],
    results: .closed(ResultField.credentials + WebAuthResult.fields))

  public static let documentation = """
    Builds `/authorize` exactly as Auth0.swift v2: `client_id`, `response_type=code`, `redirect_uri`,
    `state` and `nonce` (32 random bytes, base64url), PKCE S256, `scope` (default `openid profile email`,
    `openid` always prepended), then `audience`, `connection`, `connection_scope`, `organization`,
    `invitation`, `max_age`, `auth0Client` (Auth0 tenants and the mock only); `parameters` override these and
    `openid` is re-added. A `null` in `parameters` removes a default: `nonce: null` sends no nonce
    (and checks none in the ID token), `code_challenge: null` no PKCE at all — neither
    `code_challenge` nor `code_challenge_method` (unless the step gives a method), and no
    `code_verifier` in the exchange.

    The browser follows redirects and fills each Universal Login page it recognises (`login`,
    `signup`, `mfa`, `consent`, `organization`) by field name from `login` / `signup` (and
    `organization_prompt` for the organization prompt), keeping hidden fields and
    cookies; identifier-first pages take what fits and the next page the rest. Field names can be
    overridden per tenant with `forms` (`{email: username}`), and the tenant's `login_pages` can
    say which form is the login or consent form, its field names and its submit button, or how a
    login page that is a JavaScript app signs in (the requests its script sends with the `login`
    values, then how the authorization request continues; docs/real-tenants.md). A page with no
    form authflow can recognise fails the step with "no login form authflow can fill: …", the page
    URL, its forms and a hint, never as the provider's error. With `connection: email` (or
    `sms`) Universal Login asks for the address (`passwordless` page, filled from `passwordless`:
    `email` or `phone_number`) and then for the code it sent (`passwordless_code` page): the code is
    `passwordless.code` when given, otherwise the newest message sent to the address since the
    address page, read from the tenant's inbox (tenants with `inbox`: docs/messages.md). A page that answers a
    submission with an error fails the step with `error.code: page_error` and the `page`.

    The pages are driven by the built-in HTML driver unless the tenant says `browser: chromium`
    or the step says `browser: chromium`: then a headless chromium renders them (scripts run),
    the same page kinds are recognised in the rendered DOM and the same fields filled and
    submitted in the page, and the callback is caught before chromium requests it
    (docs/browser.md). Named browsers are separate chromium browser contexts. The built-in driver
    does not send a form that a page served over `https` posts to plain `http` (what was filled in
    would travel in the clear): the step ends with an environment error instead.

    `method: POST` sends the authorization request as a form POST (OIDC Core §3.1.2.1: providers
    MUST support it; the built-in driver only). `request_object: {}` sends the parameters in an
    unsigned request object (`request=`, alg `none`, OIDC Core §6.1), `state` and `nonce` only
    inside it, and `response_type`, `client_id`, `scope` and `redirect_uri` outside too;
    `request_object: { outside: { redirect_uri: … } }` sends other values outside than inside (a
    test of which one the provider uses). A provider that refuses request objects answers
    `request_not_supported` (OIDC Core §6.3), which may come without a state. `token_endpoint_auth_method` authenticates the code exchange with
    another method than the client profile's (`client_secret_post` for a client registered with
    `client_secret_basic`). A page that posts the authorization response to the callback
    (`response_mode: form_post`, OAuth 2.0 Form Post Response Mode) is read as the callback, its
    fields the response: it must be a POST of `application/x-www-form-urlencoded` to the
    `redirect_uri` without the response in the URL (the built-in driver; chromium posts it itself).

    On the callback, fragment and query are merged (query wins), `state` must match ("Invalid
    callback URL: …"), an `error` becomes the step's `error` (status 302: `error.code`,
    `error.description`; the step fails unless `expect` names `error`), and the code is exchanged
    at `/oauth/token` with a JSON body and the PKCE verifier. The ID token is validated as docs/protocol.md §5 says
    plus the OIDC Core and JOSE rules Auth0.swift omits (docs/id-token-validation.md), with the
    tenant's issuer, the client ID, the nonce, `max_age`, `organization` and a leeway of 60 seconds
    (not Auth0.swift's 60 000: it stores 60 000 "ms" and adds it as seconds); `leeway` changes it.
    With `openid` requested, a token response without an `id_token` fails too (OIDC Core §3.1.3.3).
    A validation failure fails the step with its reason unless `expect` names `id_token_valid`
    or `id_token_error`.

    Result: `access_token`, `id_token`, `refresh_token`, `token_type`, `expires_in`, `expires_at`,
    `scope`, `id_token_valid`, `id_token_error`, `pages` (kinds visited), `authorize_url`,
    `authorize_parameters`, `response` (the token response). With `stop_at`: `page` (`kind`, `url`,
    `fields`, `error`). `stop_at: callback` checks the callback as the full flow does (its `state`;
    an `error` in it is the step's `error`, and `page.error` its description) and gives `code` and
    `code_verifier` (both secret) to redeem the code by hand: `pkce_challenge(verifier)` computes
    a challenge for a verifier of your own (`scenarios/web_auth_by_hand.yaml` redeems a code with a
    `token` step). In `page.url` only the secrets (the code, tokens) are
    masked; an error's parameters stay readable. With `response_type: token` / `id_token`: the
    tokens from the fragment, values taken raw (not percent-decoded), without a code exchange.
    With a hybrid `response_type` (`code id_token`, `code token`, `code id_token token`, OIDC Core
    §3.3) the code is exchanged as in the code flow, and the authorization response's ID token is
    validated too (its `c_hash` over the code, its `at_hash` over the access token beside it) and
    kept as `authorization_id_token`; its `sub` must be the token endpoint's ID token's (OIDC Core §3.3.3.6).
    """

  public static let example = """
    scenario: Alice logs in through Universal Login
    client: native
    steps:
      - id: login
        web_auth:
          login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        expect:
          id_token_valid: true
          id_token.claims.email: alice@example.com
          scope: { contains: openid }
          pages: [login, callback]
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .pageError,
    scenario: """
      scenario: A wrong password is refused on the login page
      client: native
      steps:
        - id: fails
          web_auth:
            login: { email: "${{ tenant.users.alice.email }}", password: not-her-password }
      """)

  public static let traits = ActionTraits(
    capabilities: ["authorization_code"],
    capabilityUses: [
      CapabilityUse(
        "implicit", when: Self.responseType,
        .oneOf(["id_token", "token", "id_token token", "code id_token", "code token", "code id_token token"])),
      CapabilityUse("passwordless_universal_login", when: Self.passwordless, .given),
      CapabilityUse("organizations", when: Self.organization, .given),
      CapabilityUse("organizations", when: Self.invitationURL, .given),
    ],
    errors: StepErrorCode.tokenEndpoint + [
      .unauthorized,
      .pageError, .loginRequired, .consentRequired, .interactionRequired, .mfaRequired, .unsupportedResponseType,
      .requestNotSupported, .requestURINotSupported, .serverError,
    ], failures: ActionTraits.browserFlow, loginPagesBrowser: browser.name)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let transaction = try WebAuthTransaction(input, context: context)
    return try await transaction.run(context: context)
  }
}
