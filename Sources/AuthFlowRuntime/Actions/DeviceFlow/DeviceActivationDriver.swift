import AuthFlowCore
import AuthFlowHTTP

/// Drives a browser through a device activation (RFC 8628 §3.3): the user-code form, the
/// confirmation page (confirm or decline), the login pages when there is no SSO session, and the
/// final page that says whether the device was approved.
struct DeviceActivationDriver: Sendable {
  /// How the activation ended.
  enum Ending: Sendable {
    /// The final page: `approved` or `denied`.
    case outcome(String, PageResult)
    /// A page answered with an error (wrong user code, wrong password, expired code, …).
    case failure(code: String, description: String, PageResult)
  }

  static let maxPages = 10

  var browser: Browser
  var mapping: FormFieldMapping
  var userCode: String
  var decision: String
  /// Login page values (`email`, `password`).
  var login: [String: String]?
  /// The tenant's `login_pages` and `forms` (the login and consent forms; app logins are
  /// `web_auth`'s).
  var profile = LoginPageProfile()
  private(set) var pages: [String] = []

  init(browser: Browser, mapping: FormFieldMapping, userCode: String, decision: String, login: [String: String]?) {
    self.browser = browser
    self.mapping = mapping
    self.userCode = userCode
    self.decision = decision
    self.login = login
  }

  mutating func run(from url: String) async throws(ActionError) -> Ending {
    var response = try await send(HTTPRequest(method: .get, url: url))
    var submitted: Set<String> = []
    for _ in 0..<Self.maxPages {
      let document = HTMLDocument.parse(response.response)
      let status = response.response.status
      if let outcome = document.element(id: "device-outcome")?.attributes["data-outcome"] {
        pages.append("device_\(outcome)")
        return .outcome(outcome, PageResult(kind: .unknown, document: document, status: status))
      }
      let request: HTTPRequest
      let name: String
      if let form = document.forms.first(where: { $0.field(named: "user_code") != nil }) {
        name = "device_activation"
        request = try submit(form, values: ["user_code": userCode], submitter: nil)
      } else if let form = document.forms.first(where: { $0.id == "device-confirm-form" }) {
        name = "device_confirmation"
        request = try submit(form, values: [:], submitter: decision)
      } else {
        let kind = PageKind.classify(document, profile: profile)
        name = kind.rawValue
        guard [.login, .signup, .mfa].contains(kind), let form = PageKind.form(of: kind, in: document, profile: profile)
        else {
          pages.append(name)
          let page = PageResult(kind: kind, document: document, status: status, profile: profile)
          if kind == .error || page.error != nil {
            return .failure(
              code: page.errorCode ?? WebAuthMessages.pageErrorCode, description: page.error ?? document.snippet(),
              page)
          }
          throw .flow(
            WebAuthMessages.noCallback(stoppedAt: kind.rawValue, url: document.url, snippet: document.snippet()))
        }
        guard let login else { throw .flow(WebAuthMessages.missingValues(for: "login")) }
        request = try submit(
          form, values: mapping.fieldValues(login, for: form, kind: kind),
          submitter: profile.description(of: kind)?.submit)
      }
      pages.append(name)
      if submitted.contains(name), let error = document.errorMessages.first {
        let page = PageResult(
          kind: PageKind.classify(document, profile: profile), document: document, status: status, profile: profile)
        return .failure(code: WebAuthMessages.pageErrorCode, description: error, page)
      }
      submitted.insert(name)
      response = try await send(request)
    }
    throw .flow(DeviceFlowMessages.tooManyPages)
  }

  private func submit(
    _ form: HTMLForm, values: [String: String], submitter: String?
  ) throws(ActionError) -> HTTPRequest {
    do {
      return try form.filled(with: values).submission(submitter: submitter)
    } catch {
      throw .flow(error.message)
    }
  }

  private func send(_ request: HTTPRequest) async throws(ActionError) -> BrowserResponse {
    let exchange: BrowserResponse
    do {
      exchange = try await browser.send(request, followRedirects: true)
    } catch {
      throw .environment(WebAuthMessages.unreachable(error.message))
    }
    if exchange.response.status >= 500 {
      throw .environment(
        WebAuthMessages.serverError(exchange.response.status, url: SensitiveData.maskURL(exchange.response.url)))
    }
    return exchange
  }
}

/// The device actions' messages.
enum DeviceFlowMessages {
  static let tooManyPages = "the device activation did not reach its final page after 10 pages"
  static func timedOut(after seconds: Int) -> String {
    "the device was not authorized within \(seconds) s (still `authorization_pending`)"
  }
}
