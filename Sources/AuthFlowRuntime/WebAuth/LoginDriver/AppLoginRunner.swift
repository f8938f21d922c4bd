import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP
import AuthFlowScenario
import Foundation

/// Signs in on a login page that is a JavaScript app, as the tenant's `login_pages.app` says:
/// sends its requests in the step's browser (cookies carried both ways), then says where the
/// browser goes to continue the authorization.
///
/// The templates see `env`, `login` (the step's login values; the password secret), `page`
/// (`url`, `query` of the app page) and `response` (the previous request's `status`, `headers`,
/// `body`).
struct AppLoginRunner: Sendable {
  /// How the login ended.
  enum Outcome: Sendable {
    /// Signed in: the browser goes here next.
    case continueAt(String)
    /// A login request answered 4xx: the provider refused the login (wrong password, …).
    case refused(message: String, status: Int)
  }

  var app: LoginPageProfile.AppLogin
  var browser: Browser
  /// Where the continuation's values are registered: a `continue` token signs the browser in, as
  /// a code does, so it is a secret.
  var secrets: SecretRegistry?

  func signIn(
    on document: HTMLDocument, login: [String: String], authorizeURL: String
  ) async throws(ActionError) -> Outcome {
    var loginValues: [String: Value] = [:]
    for (key, value) in login {
      loginValues[key] = SecretFieldNames.all.contains(key) ? Value.string(value).asSecret : .string(value)
    }
    let query = URLParameters.query(of: document.url)
    var roots: [String: Value] = [
      "env": .object(app.environment.mapValues(Value.string)), "login": .object(loginValues),
      "page": .object([
        "url": .string(document.url),
        "query": .object(Dictionary(query.map { ($0.name, Value.string($0.value)) }, uniquingKeysWith: { a, _ in a })),
      ]),
    ]
    for (index, described) in app.requests.enumerated() {
      let context = EvaluationContext(roots: roots, functions: Pipeline.functions)
      let target = try string(described.url, in: context, what: "url")
      guard let url = URLResolution.resolve(target, against: document.url) else {
        throw .flow(AppLoginMessages.badURL(target, at: described.url.location))
      }
      let request = try self.request(described, url: url, context: context)
      let response: HTTPResponse
      do {
        response = try await browser.send(request, followRedirects: false).response
      } catch {
        throw .environment(WebAuthMessages.unreachable(error.message))
      }
      let label = "\(described.method.value) \(SensitiveData.maskURL(url))"
      if response.status >= 500 {
        throw .environment(WebAuthMessages.serverError(response.status, url: SensitiveData.maskURL(url)))
      }
      if response.status >= 400 {
        return .refused(
          message: AppLoginMessages.refused(
            request: index + 1, label, status: response.status, detail: Self.errorDetail(response)),
          status: response.status)
      }
      roots["response"] = Self.value(of: response)
    }
    let context = EvaluationContext(roots: roots, functions: Pipeline.functions)
    if let parameters = app.continueParameters {
      let value = try evaluate(parameters, in: context)
      guard let members = value.objectValue else {
        throw .flow(AppLoginMessages.notAnObject("continue.parameters", at: parameters.location))
      }
      var added = URLParameters()
      for key in members.keys.sorted() {
        guard let text = Self.text(members[key] ?? .null) else {
          throw .flow(AppLoginMessages.notText("continue.parameters.\(key)", at: parameters.location))
        }
        added.append(key, text)
        secrets?.register(secretsIn: .secret(.string(text)))
      }
      return .continueAt(URLResolution.appendingQuery(added, to: authorizeURL))
    }
    guard let template = app.continueURL else { throw .flow(AppLoginMessages.noContinuation) }
    let target = try string(template, in: context, what: "continue.url")
    guard let url = URLResolution.resolve(target, against: document.url) else {
      throw .flow(AppLoginMessages.badURL(target, at: template.location))
    }
    return .continueAt(url)
  }

  private func request(
    _ described: LoginPagesProfile.AppRequest, url: String, context: EvaluationContext
  ) throws(ActionError) -> HTTPRequest {
    let method = HTTPMethod(rawValue: described.method.value)
    let headers: HTTPHeaderFields = ["Accept": "application/json, text/plain, */*"]
    guard let template = described.body else { return HTTPRequest(method: method, url: url, headers: headers) }
    let body = try evaluate(template, in: context)
    switch described.encoding ?? .json {
    case .json:
      return .json(method, url: url, body: body, headers: headers)
    case .form:
      var fields = URLParameters()
      for (key, value) in (body.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
        guard let text = Self.text(value) else {
          throw .flow(AppLoginMessages.notText("form.\(key)", at: template.location))
        }
        fields.append(key, text)
      }
      return .form(method, url: url, fields: fields, headers: headers)
    }
  }

  private func evaluate(_ template: Template, in context: EvaluationContext) throws(ActionError) -> Value {
    do {
      return try template.evaluate(in: context)
    } catch {
      throw .flow(AppLoginMessages.evaluation(error.message, at: error.location))
    }
  }

  private func string(_ template: Template, in context: EvaluationContext, what: String) throws(ActionError) -> String {
    guard let text = Self.text(try evaluate(template, in: context)) else {
      throw .flow(AppLoginMessages.notText(what, at: template.location))
    }
    return text
  }

  /// A scalar as request text (secrets revealed: it goes on the wire); nil for objects, lists, null.
  static func text(_ value: Value) -> String? {
    switch value.revealed {
    case .string(let text): return text
    case .int(let number): return String(number)
    case .double(let number): return String(number)
    case .bool(let flag): return flag ? "true" : "false"
    default: return nil
    }
  }

  /// `response` for the next templates: status, headers (lowercased names), body (JSON when it
  /// parses, else text).
  static func value(of response: HTTPResponse) -> Value {
    var headers: [String: Value] = [:]
    for field in response.headers { headers[field.name.lowercased()] = .string(field.value) }
    return .object([
      "status": .int(response.status), "headers": .object(headers),
      "body": response.jsonValue ?? .string(response.bodyText),
    ])
  }

  /// What a refused login request says: the OAuth/JSON error fields, else the start of the body.
  static func errorDetail(_ response: HTTPResponse) -> String {
    if let members = response.jsonValue?.objectValue {
      for key in ["error_description", "message", "error", "detail", "title"] {
        if let text = members[key]?.stringValue, !text.isEmpty { return text }
      }
    }
    let text = response.bodyText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return text.count > 200 ? String(text.prefix(200)) + "…" : text
  }
}

/// The messages of app logins (`login_pages.app`).
enum AppLoginMessages {
  static func refused(request number: Int, _ label: String, status: Int, detail: String) -> String {
    "the login app refused the sign-in: login request \(number) (\(label)) answered HTTP \(status)"
      + (detail.isEmpty ? "" : ": \(detail)")
  }
  static func evaluation(_ message: String, at location: SourceLocation) -> String {
    "\(location): login_pages.app: \(message)"
  }
  static func notText(_ what: String, at location: SourceLocation) -> String {
    "\(location): login_pages.app: \(what) must be a string, number or boolean"
  }
  static func notAnObject(_ what: String, at location: SourceLocation) -> String {
    "\(location): login_pages.app: \(what) must be a mapping of parameter names to values"
  }
  static func badURL(_ url: String, at location: SourceLocation) -> String {
    "\(location): login_pages.app: '\(SensitiveData.maskURL(url))' is not a URL"
  }
  static let noContinuation = "login_pages.app has no `continue`: say how the authorization request continues"
  static func appCameBack(_ url: String) -> String {
    "the login app page (\(url)) came back after the profile's login requests succeeded: the continuation did not "
      + "sign in; check `login_pages.app.continue` against what the page's script does"
  }
}
