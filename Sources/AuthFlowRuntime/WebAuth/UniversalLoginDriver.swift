import AuthFlowCore
import AuthFlowHTTP

/// Drives a browser from `/authorize` through the login pages to the callback: recognises each
/// page, fills its form by field name (hidden fields and cookies carried), and follows redirects.
/// The browser is a ``PageNavigator``: the built-in HTML one, or chromium (`browser: chromium`);
/// pages are classified and filled here, the same way for both.
struct UniversalLoginDriver: Sendable {
  /// What the navigation ended with.
  enum Ending: Sendable {
    /// The browser was sent to the callback URL.
    case callback(String)
    /// `stop_at` was reached, or a page answered with an error.
    case page(PageResult, failure: String?)
  }

  static let maxPages = 10

  var navigator: any PageNavigator
  var mapping: FormFieldMapping
  /// Form values by page kind (`login`, `signup`, `mfa`, `consent`).
  var values: [PageKind: [String: String]]
  var stopAt: PageKind?
  /// Where a passwordless code page's code is read when `values` gives none (the mock's outbox).
  var mailbox: (any Mailbox)?
  private(set) var pages: [String] = []
  /// Messages already sent to the passwordless address when its page was submitted.
  private var messagesBefore = 0

  init(
    navigator: any PageNavigator, mapping: FormFieldMapping, values: [PageKind: [String: String]], stopAt: PageKind?
  ) {
    self.navigator = navigator
    self.mapping = mapping
    self.values = values
    self.stopAt = stopAt
  }

  /// Navigates from `url` until the callback, `stop_at`, or a page it cannot get past.
  mutating func run(from url: String) async throws(ActionError) -> Ending {
    var load = try await navigator.open(url)
    var submitted: [PageKind: Int] = [:]
    for _ in 0..<Self.maxPages {
      let document: HTMLDocument
      let status: Int
      switch load {
      case .callback(let callback):
        pages.append(PageKind.callback.rawValue)
        if stopAt == .callback { return .page(PageResult(callback: callback), failure: nil) }
        return .callback(callback)
      case .page(let shown, let code):
        (document, status) = (shown, code)
      }
      let kind = PageKind.classify(document)
      pages.append(kind.rawValue)
      let page = PageResult(kind: kind, document: document, status: status)
      if stopAt == kind { return .page(page, failure: nil) }
      if let error = page.error, submitted[kind, default: 0] > 0 || kind == .error {
        return .page(page, failure: WebAuthMessages.pageError(kind: kind.rawValue, message: error))
      }
      guard let form = PageKind.form(of: kind, in: document) else {
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
      let fields = mapping.fieldValues(given, for: form)
      let filled: HTMLForm
      do {
        filled = try form.filled(with: fields)
      } catch {
        throw .flow(error.message)
      }
      let accept = kind == .consent ? filled.submitButtons.first { $0.value == "accept" } : nil
      load = try await navigator.submit(
        PageSubmission(form: form, filled: filled, fields: fields, submitter: accept, document: document))
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
}
