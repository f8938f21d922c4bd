public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// `http` — one HTTP exchange, with a named browser's cookies, optionally following redirects.
public struct HTTPAction: Action {
  static let url = Parameter<String>(
    "url", required: true, summary: "Absolute URL, or a path relative to the tenant's base URL.")
  static let method = Parameter<String>(
    "method", .oneOf(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]), summary: "Default GET.")
  static let headers = Parameter<[String: Value]>("headers", summary: "Request headers.")
  static let query = Parameter<[String: Value]>(
    "query", summary: "Query parameters, appended to the URL (percent-encoded).")
  static let form = Parameter<[String: Value]>("form", summary: "An application/x-www-form-urlencoded body.")
  static let json = Parameter<Value>("json", summary: "A JSON body (any value).")
  static let body = Parameter<String>("body", summary: "A raw text body (set `Content-Type` in headers).")
  static let bearer = Parameter<String>("bearer", summary: "Sends `Authorization: Bearer <value>`.")
  static let followRedirects = Parameter<Bool>("follow_redirects", summary: "Follow 3xx responses (default false).")
  static let browser = Parameter<String>(
    "browser", summary: "The named browser whose cookie jar to use (default `default`).")
  static let timeout = Parameter<Duration>("timeout", summary: "Per-request timeout.")

  public static let signature = ActionSignature(
    name: "http", summary: "Send an HTTP request and expose the response.",
    declaring: [
      Self.url, Self.method, Self.headers, Self.query, Self.form, Self.json, Self.body, Self.bearer,
      Self.followRedirects, Self.browser, Self.timeout,
    ],
    results: .closed(ResultField.http + [ResultField("redirects", "The URLs visited on the way.")]))

  public static let documentation = """
    Sends one request through a named browser: its cookies are sent and the response's
    `Set-Cookie` headers are stored, so consecutive `http` steps naming the same browser behave like
    one user agent. Redirects are not followed unless `follow_redirects: true`; a redirect to the
    client's `redirect_uri` is never fetched, so the callback URL can be read from `url`.

    The result: `status`, `headers` (lower-case names; a header sent several times is a list),
    `body` (parsed JSON when the response is JSON, else text), `cookies` (the browser's cookies for
    the final URL, values secret), `url` (the final URL) and `redirects` (the URLs visited).
    Token-, code- and password-like members of a JSON body are secrets; JWTs are JWT values.
    A 4xx or 5xx whose `status` the step's `expect` does not name fails the step: a 5xx, and a
    429 still refusing after the rate-limit retries, as an environment error (exit 3), another 4xx
    as a failure (exit 1); name `status` when the answer is what the step tests. Failing to get a
    response (refused connection, timeout) is an environment error.
    """

  public static let example = """
    scenario: The discovery document names the issuer
    steps:
      - id: discovery
        http:
          url: .well-known/openid-configuration
        expect:
          status: 200
          body.issuer: ${{ tenant.issuer }}
          headers.content-type: { contains: application/json }
    """

  public static let failingExample = FailingExample(
    .environment,
    scenario: """
      scenario: A 5xx answer is an environment failure
      requires: [mock_control]
      steps:
        - mock_fault: { endpoint: /userinfo, kind: status, status: 503, count: 1 }
        - id: fails
          http: { url: userinfo }
      """)

  public static let traits = ActionTraits(
    capabilityUses: [
      CapabilityUse("legacy_ro", when: Self.url, .oneOf(["oauth/ro", "oauth/access_token"])),
      CapabilityUse("dynamic_client_registration", when: Self.url, .oneOf(["oidc/register"])),
      CapabilityUse("discovery", when: Self.url, .oneOf([".well-known/openid-configuration"])),
    ],
    failures: [.environment, .flow, .invalidParameter])

  public init() {}

  /// A 4xx or 5xx answer the step does not expect — its `expect` names no `status` — is not a
  /// pass: a step that does not look at the status did not expect the tenant to refuse or fail.
  /// A 5xx is the tenant failing, and a 429 its rate limit still refusing after the retries: an
  /// environment failure (exit 3). Any other 4xx (a 429 that is an answer, `too_many_attempts` or
  /// `slow_down`, among them) is a failure (exit 1), as an unexpected protocol error is for the
  /// other actions. Naming `status` makes the status the thing under test (a fault injected with
  /// `mock_fault`, a refusal the step checks). The other actions classify answers themselves
  /// (docs/protocol.md §1).
  public static func failure(in result: Value, expectations: [[String]]) -> ResultFailure? {
    guard let status = result.member("status")?.intValue, status >= 400,
      !expectations.contains(where: { $0.first == "status" })
    else { return nil }
    let url = result.member("url")?.stringValue.map(SensitiveData.maskURL) ?? "the tenant"
    if status >= 500 { return ResultFailure(.environment, HTTPMessages.serverError(status: status, url: url)) }
    // The tenant's own text: a short prefix is enough to name the refusal.
    let code = result.member("body")?.member("error")?.stringValue.map { String($0.prefix(100)) }
    if RateLimitDelay.isRateLimit(status: status, code: code) {
      return ResultFailure(.environment, HTTPMessages.rateLimited(url: url))
    }
    return ResultFailure(.flow, HTTPMessages.unexpectedRefusal(status: status, code: code, url: url))
  }

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    var url = resolve(try input.required(Self.url), base: context.tenant.baseURL)
    let query = try input.stringMap(Self.query)
    if !query.isEmpty {
      url += (url.contains("?") ? "&" : "?") + URLParameters(query).queryString()
    }
    let method = HTTPMethod(rawValue: (try input[Self.method] ?? "GET").uppercased())
    var request = HTTPRequest(method: method, url: url)
    for (name, value) in try input.stringMap(Self.headers) { request.headers.add(name: name, value: value) }
    if let token = try input[Self.bearer] {
      request.headers.remove("Authorization")
      request.headers.add(name: "Authorization", value: "Bearer \(token)")
    }
    let form = try input.stringMap(Self.form)
    if !form.isEmpty {
      request.body = Array(URLParameters(form).formEncoded().utf8)
      if !request.headers.contains("Content-Type") {
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
      }
    } else if let json = try input[Self.json] {
      request.body = Array(json.jsonText(revealSecrets: true).utf8)
      if !request.headers.contains("Content-Type") {
        request.headers.add(name: "Content-Type", value: "application/json")
      }
    } else if let body = try input[Self.body] {
      request.body = Array(body.utf8)
    }
    request.timeout = try input[Self.timeout]
    let browser = await context.browser(named: try input[Self.browser])
    let followRedirects = try input[Self.followRedirects] ?? false
    let exchange: BrowserResponse
    do {
      exchange = try await browser.send(request, followRedirects: followRedirects)
    } catch {
      throw .environment(error.message)
    }
    for url in [exchange.response.url, exchange.callbackURL].compactMap({ $0 }) + exchange.visited {
      HTTPResult.registerSecrets(inURL: url, with: context.secrets)
    }
    var result = HTTPResult.value(of: exchange.response, secrets: context.secrets)
    result["cookies"] = await browser.cookiesValue
    result["redirects"] = .array(exchange.visited.map(Value.string))
    if let callback = exchange.callbackURL { result["url"] = .string(callback) }
    return .success(.object(result))
  }

  private func resolve(_ url: String, base: String) -> String {
    if url.hasPrefix("http://") || url.hasPrefix("https://") { return url }
    return base + (url.hasPrefix("/") ? String(url.dropFirst()) : url)
  }
}

/// An HTTP response as a step result (`status`, `headers`, `body`, `url`).
enum HTTPResult {
  /// Registers the sensitive parameters of a URL (`?code=…`, `#access_token=…`) as secrets, so the
  /// URL can be shown with them scrubbed.
  static func registerSecrets(inURL url: String, with secrets: SecretRegistry) {
    for value in SensitiveData.sensitiveValues(inURL: url) { secrets.register(value) }
  }

  static func value(of response: HTTPResponse, secrets: SecretRegistry? = nil) -> [String: Value] {
    if let location = response.location, let secrets { registerSecrets(inURL: location, with: secrets) }
    var headers: [String: Value] = [:]
    for field in response.headers {
      let name = field.name.lowercased()
      let value: Value = SensitiveData.isSensitiveHeader(name) ? .secret(.string(field.value)) : .string(field.value)
      if let existing = headers[name] {
        headers[name] = .array((existing.arrayValue ?? [existing]) + [value])
      } else {
        headers[name] = value
      }
    }
    let body: Value
    if let json = response.jsonValue {
      body = json.taggingSecrets()
    } else {
      body = .string(response.bodyText)
    }
    return ["status": .int(response.status), "headers": .object(headers), "body": body, "url": .string(response.url)]
  }
}

/// The messages of `http` steps.
enum HTTPMessages {
  static func serverError(status: Int, url: String) -> String {
    "\(url) answered HTTP \(status) (a server error: the environment, not an assertion); add "
      + "`expect: { status: \(status) }` if this is the expected outcome"
  }

  static func rateLimited(url: String) -> String {
    "\(url) still answered HTTP 429 after the rate-limit retries (the tenant's capacity: the environment, not "
      + "an assertion); run fewer --jobs, or add `expect: { status: 429 }` if the limit is what the step tests"
  }

  static func unexpectedRefusal(status: Int, code: String?, url: String) -> String {
    "\(url) answered HTTP \(status)\(code.map { " (\($0))" } ?? ""), which the step does not expect; add "
      + "`expect: { status: \(status) }` if this refusal is what the step tests"
  }
}
