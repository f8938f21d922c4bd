import AuthFlowCore
import AuthFlowHTTP

/// Where a login navigation stands after a step of the browser.
enum PageLoad: Sendable {
  /// The browser was sent to the callback; it was caught, not fetched.
  case callback(String)
  /// A page to recognise: its document and HTTP status.
  case page(HTMLDocument, status: Int)
}

/// A form the login driver submits: the form as found, the same form filled, the values it was
/// filled with (by field name), the button to press (nil: the default one), and its page.
struct PageSubmission: Sendable {
  var form: HTMLForm
  var filled: HTMLForm
  var fields: [String: String]
  /// The button to submit with, when one was chosen (the profile's `submit`, consent's accept).
  var submitter: HTMLFormField?
  /// How it was named (name, value, id or label), for the built-in driver's own encoding.
  var submitterName: String?
  var document: HTMLDocument
}

/// The browser the login driver (``UniversalLoginDriver``) drives: it opens a URL and submits a
/// form, and says where that ended. The built-in one (``HTMLPageNavigator``) sends the requests
/// itself; ``ChromiumNavigator`` has a real browser do it.
protocol PageNavigator: Sendable {
  func open(_ url: String) async throws(ActionError) -> PageLoad
  /// POSTs `fields`, form-encoded, to `url` (an authorization request sent by POST, OpenID
  /// Connect Core §3.1.2.1).
  func post(_ url: String, fields: URLParameters) async throws(ActionError) -> PageLoad
  func submit(_ submission: PageSubmission) async throws(ActionError) -> PageLoad
  /// The cookie-jar browser behind the navigator, for requests a tenant profile describes (an app
  /// login, ``AppLoginRunner``); nil for a real browser, which runs the page's scripts itself.
  var httpBrowser: Browser? { get }
}

/// The built-in browser: HTTP requests through the run's transport, a cookie jar, redirects
/// followed, forms encoded as a browser encodes them; no scripts run.
struct HTMLPageNavigator: PageNavigator {
  var browser: Browser

  var httpBrowser: Browser? { browser }

  func open(_ url: String) async throws(ActionError) -> PageLoad {
    try await send(HTTPRequest(method: .get, url: url))
  }

  func post(_ url: String, fields: URLParameters) async throws(ActionError) -> PageLoad {
    try await send(.form(.post, url: url, fields: fields))
  }

  func submit(_ submission: PageSubmission) async throws(ActionError) -> PageLoad {
    let request: HTTPRequest
    do {
      request = try submission.filled.submission(submitter: submission.submitterName)
    } catch {
      throw .flow(error.message)
    }
    // A page served over TLS that posts its form to plain HTTP (a downgrade): a browser warns
    // before sending it; the login driver does not send the credentials at all.
    if URLSecurity.isDowngrade(from: submission.document.url, to: request.url) {
      throw .environment(
        WebAuthMessages.insecureForm(
          page: SensitiveData.maskURL(submission.document.url), action: SensitiveData.maskURL(request.url)))
    }
    return try await send(request)
  }

  private func send(_ request: HTTPRequest) async throws(ActionError) -> PageLoad {
    let exchange: BrowserResponse
    do {
      exchange = try await browser.send(request, followRedirects: true)
    } catch {
      throw .environment(WebAuthMessages.unreachable(error.message))
    }
    if let callback = exchange.callbackURL { return .callback(callback) }
    // A 5xx page is the tenant failing (docs/protocol.md §1), not a login page to drive.
    if exchange.response.status >= 500 {
      throw .environment(
        WebAuthMessages.serverError(exchange.response.status, url: SensitiveData.maskURL(exchange.response.url)))
    }
    return .page(HTMLDocument.parse(exchange.response), status: exchange.response.status)
  }
}
