import AuthFlowCore
import AuthFlowHTTP

/// Drives a browser from `/authorize` through the login pages to the callback: recognises each
/// page, fills its form by field name (hidden fields and cookies carried), and follows redirects.
struct UniversalLoginDriver: Sendable {
  /// What the navigation ended with.
  enum Ending: Sendable {
    /// The browser was sent to the callback URL.
    case callback(String)
    /// `stop_at` was reached, or a page answered with an error.
    case page(PageResult, failure: String?)
  }

  static let maxPages = 10

  var browser: Browser
  var mapping: FormFieldMapping
  /// The tenant's `login_pages` and `forms`: page recognition and app logins.
  var profile = LoginPageProfile()
  /// The run's secrets, for what an app login's continuation carries.
  var secrets: SecretRegistry?
  /// Form values by page kind (`login`, `signup`, `mfa`, `consent`).
  var values: [PageKind: [String: String]]
  var stopAt: PageKind?
  /// Where a passwordless code page's code is read when `values` gives none (the mock's outbox).
  var mailbox: (any Mailbox)?
  private(set) var pages: [String] = []
  /// Messages already sent to the passwordless address when its page was submitted.
  private var messagesBefore = 0

  init(browser: Browser, mapping: FormFieldMapping, values: [PageKind: [String: String]], stopAt: PageKind?) {
    self.browser = browser
    self.mapping = mapping
    self.values = values
    self.stopAt = stopAt
  }

  /// Navigates from `url` until the callback, `stop_at`, or a page it cannot get past.
  mutating func run(from url: String) async throws(ActionError) -> Ending {
    var response = try await send(HTTPRequest(method: .get, url: url))
    var submitted: [PageKind: Int] = [:]
    var appSignedIn = false
    for _ in 0..<Self.maxPages {
      if let callback = response.callbackURL {
        pages.append(PageKind.callback.rawValue)
        if stopAt == .callback { return .page(PageResult(callback: callback), failure: nil) }
        return .callback(callback)
      }
      let document = HTMLDocument.parse(response.response)
      let (kind, app) = PageKind.recognize(document, profile: profile)
      pages.append(kind.rawValue)
      var page = PageResult(kind: kind, document: document, status: response.response.status, profile: profile)
      if stopAt == kind { return .page(page, failure: nil) }
      if let app {
        if appSignedIn {
          return .page(page, failure: AppLoginMessages.appCameBack(SensitiveData.maskURL(document.url)))
        }
        guard let given = values[.login] else { throw .flow(WebAuthMessages.missingValues(for: kind.rawValue)) }
        appSignedIn = true
        submitted[kind, default: 0] += 1
        switch try await AppLoginRunner(app: app, browser: browser, secrets: secrets).signIn(
          on: document, login: given, authorizeURL: url)
        {
        case .continueAt(let next):
          response = try await send(HTTPRequest(method: .get, url: next))
        case .refused(let message, let status):
          page.error = message
          page.status = status
          return .page(page, failure: message)
        }
        continue
      }
      if let error = page.error, submitted[kind, default: 0] > 0 || kind == .error {
        return .page(page, failure: WebAuthMessages.pageError(kind: kind.rawValue, message: error))
      }
      guard let form = PageKind.form(of: kind, in: document, profile: profile) else {
        if kind == .unknown {
          throw .flow(
            WebAuthMessages.noFillableForm(
              url: SensitiveData.maskURL(document.url), forms: document.forms.map(\.summary),
              snippet: document.snippet()))
        }
        throw .flow(
          WebAuthMessages.noCallback(stoppedAt: kind.rawValue, url: document.url, snippet: document.snippet()))
      }
      if kind == .passwordless, let address = passwordlessAddress, let mailbox {
        messagesBefore = try await mailbox.messages(to: address).count
      }
      if kind == .passwordlessCode, values[kind] == nil { values[kind] = ["code": try await passwordlessCode()] }
      guard let given = values[kind] ?? (kind == .consent ? [:] : nil) else {
        throw .flow(WebAuthMessages.missingValues(for: kind.rawValue))
      }
      submitted[kind, default: 0] += 1
      let request: HTTPRequest
      do {
        let filled = try form.filled(with: mapping.fieldValues(given, for: form, kind: kind))
        let accept = kind == .consent ? filled.submitButtons.first { $0.value == "accept" }?.value : nil
        request = try filled.submission(submitter: profile.description(of: kind)?.submit ?? accept)
      } catch {
        throw .flow(error.message)
      }
      response = try await send(request)
    }
    throw .flow(WebAuthMessages.tooManyPages)
  }

  /// The email or phone number given for the passwordless address page.
  private var passwordlessAddress: String? {
    let given = values[.passwordless] ?? [:]
    return given["email"] ?? given["phone_number"] ?? given["username"]
  }

  /// The code of the message sent to the passwordless address since its page was submitted, read
  /// from the mailbox (polled for up to `codeTimeout`).
  private func passwordlessCode() async throws(ActionError) -> String {
    guard let address = passwordlessAddress else {
      throw .flow(WebAuthMessages.missingValues(for: PageKind.passwordless.rawValue))
    }
    guard let mailbox else { throw .flow(WebAuthMessages.noPasswordlessCode) }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: Self.codeTimeout)
    while true {
      let messages = try await mailbox.messages(to: address)
      if messages.count > messagesBefore, let newest = messages.last {
        let body = newest["body"]?.stringValue ?? ""
        if let code = newest["code"]?.stringValue ?? MessageContents.firstCode(in: body) { return code }
        throw .flow(WebAuthMessages.noCodeInMessage)
      }
      guard clock.now < deadline else { throw .flow(WebAuthMessages.noCodeArrived(address: address)) }
      do {
        try await Task.sleep(for: OutboxAction.pollInterval)
      } catch {
        throw .flow(OutboxMessages.cancelled)
      }
    }
  }

  /// How long the driver waits for a passwordless code to arrive.
  static let codeTimeout = Duration.seconds(5)

  private func send(_ request: HTTPRequest) async throws(ActionError) -> BrowserResponse {
    let exchange: BrowserResponse
    do {
      exchange = try await browser.send(request, followRedirects: true)
    } catch {
      throw .environment(WebAuthMessages.unreachable(error.message))
    }
    // A 5xx page is the tenant failing (PROTOCOL §1), not a login page to drive.
    if exchange.callbackURL == nil, exchange.response.status >= 500 {
      throw .environment(
        WebAuthMessages.serverError(exchange.response.status, url: SensitiveData.maskURL(exchange.response.url)))
    }
    return exchange
  }
}
