import AuthFlowCore
import AuthFlowHTTP

/// Drives a browser from `/authorize` through the login pages to the callback: recognises each
/// page, fills its form by field name (hidden fields and cookies carried), and follows redirects.
/// The browser is a ``PageNavigator``: the built-in HTML one, or chromium (`browser: chromium`);
/// pages are classified and filled here, the same way for both.
struct UniversalLoginDriver: Sendable {
  /// What the navigation ended with.
  /// How the navigation starts: the authorization request, sent by GET or by POST.
  enum Start: Sendable {
    case get(String)
    case post(String, fields: URLParameters)

    var url: String {
      switch self {
      case .get(let url), .post(let url, _): return url
      }
    }
  }

  /// A `response_mode=form_post` answer (OAuth 2.0 Form Post Response Mode §2): a page whose
  /// form, posted by its script, carries the authorization response to the callback.
  struct FormPostResponse: Sendable {
    /// The form's action: the callback.
    var url: String
    var fields: [String: String]
    var method: HTTPMethod
    var enctype: String
  }

  enum Ending: Sendable {
    /// The browser was sent to the callback URL (`stop_at: callback` included).
    case callback(String)
    /// The callback was to be reached by a posted form (`form_post`).
    case formPost(FormPostResponse)
    /// `stop_at` was reached on a page before the callback, or a page answered with an error;
    /// `hint` says what of the step's own values may be the cause (a misspelt login key).
    case page(PageResult, failure: String?, hint: String? = nil)
  }

  static let maxPages = 10

  var navigator: any PageNavigator
  var mapping: FormFieldMapping
  /// The tenant's `login_pages` and `forms`: page recognition and app logins.
  var profile = LoginPageProfile()
  /// The run's secrets, for what an app login's continuation carries.
  var secrets: SecretRegistry?
  /// Form values by page kind (`login`, `signup`, `mfa`, `consent`).
  var values: [PageKind: [String: String]]
  var stopAt: PageKind?
  /// Where a passwordless code page's code is read when `values` gives none (the tenant's inbox).
  var mailbox: (any Mailbox)?
  private(set) var pages: [String] = []
  /// The callback (the request's `redirect_uri`): a page whose form posts there is a
  /// `form_post` response, not a page to fill.
  var callback: String?
  /// The id of the inbox's newest message when the passwordless page was submitted (``InboxMark``):
  /// the code is in a message with a larger one.
  private var inboxMark = 0
  /// What the last submission of each page kind left empty: the fields the page shows that the
  /// step's values did not fill, and the keys those values gave.
  private var leftEmpty: [PageKind: (fields: [String], given: [String])] = [:]

  init(
    navigator: any PageNavigator, mapping: FormFieldMapping, values: [PageKind: [String: String]], stopAt: PageKind?
  ) {
    self.navigator = navigator
    self.mapping = mapping
    self.values = values
    self.stopAt = stopAt
  }

  /// Navigates from `start` until the callback, `stop_at`, or a page it cannot get past.
  mutating func run(from start: Start) async throws(ActionError) -> Ending {
    let url = start.url
    var load: PageLoad
    switch start {
    case .get(let url): load = try await navigator.open(url)
    case .post(let url, let fields): load = try await navigator.post(url, fields: fields)
    }
    var submitted: [PageKind: Int] = [:]
    var appSignedIn = false
    for _ in 0..<Self.maxPages {
      let document: HTMLDocument
      let status: Int
      switch load {
      case .callback(let callback):
        // `stop_at: callback` is the transaction's to handle: the callback is checked (state, an
        // error) whether the flow stops there or goes on to the code exchange.
        pages.append(PageKind.callback.rawValue)
        return .callback(callback)
      case .page(let shown, let code):
        (document, status) = (shown, code)
      }
      if let callback, let response = Self.formPostResponse(in: document, callback: callback) {
        pages.append(PageKind.callback.rawValue)
        return .formPost(response)
      }
      let (kind, app) = PageKind.recognize(document, profile: profile)
      pages.append(kind.rawValue)
      var page = PageResult(kind: kind, document: document, status: status, profile: profile)
      if stopAt == kind { return .page(page, failure: nil) }
      // An app login is the built-in driver's way past a login page that is a JavaScript app; a
      // real browser runs the app itself.
      if let app, let browser = navigator.httpBrowser {
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
          load = try await navigator.open(next)
        case .refused(let message, let status):
          page.error = message
          page.status = status
          return .page(page, failure: message)
        }
        continue
      }
      if let error = page.error, submitted[kind, default: 0] > 0 || kind == .error {
        let hint = leftEmpty[kind].flatMap { left in
          left.fields.isEmpty
            ? nil : WebAuthMessages.fieldsLeftEmpty(left.fields, kind: kind.rawValue, given: left.given)
        }
        return .page(page, failure: WebAuthMessages.pageError(kind: kind.rawValue, message: error), hint: hint)
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
        inboxMark = try await mailbox.lastID()
      }
      if kind == .passwordlessCode, values[kind] == nil { values[kind] = ["code": try await passwordlessCode()] }
      guard let given = values[kind] ?? (kind == .consent ? [:] : nil) else {
        throw .flow(WebAuthMessages.missingValues(for: kind.rawValue))
      }
      submitted[kind, default: 0] += 1
      let fields = mapping.fieldValues(given, for: form, kind: kind)
      leftEmpty[kind] = (Self.emptyFields(of: form, filling: fields), given.keys.sorted())
      let filled: HTMLForm
      let requested: String?
      let submitter: HTMLFormField?
      do {
        filled = try form.filled(with: fields)
        let accept = kind == .consent ? filled.submitButtons.first { $0.value == "accept" }?.value : nil
        requested = profile.description(of: kind)?.submit ?? accept
        submitter = try requested.flatMap { name throws(FormError) in try filled.submitButton(name) }
      } catch {
        throw .flow(error.message)
      }
      load = try await navigator.submit(
        PageSubmission(
          form: form, filled: filled, fields: fields, submitter: submitter, submitterName: requested,
          document: document))
    }
    throw .flow(WebAuthMessages.tooManyPages)
  }

  /// The `form_post` response a page carries: a form whose action is the callback, read as the
  /// browser would post it (hidden fields, values as given).
  static func formPostResponse(in document: HTMLDocument, callback: String) -> FormPostResponse? {
    guard let form = document.forms.first(where: { $0.action.hasPrefix(callback) }) else { return nil }
    var fields: [String: String] = [:]
    for field in form.fields where !field.name.isEmpty && !field.isSubmitButton {
      fields[field.name] = field.value
    }
    return FormPostResponse(url: form.action, fields: fields, method: form.method, enctype: form.enctype)
  }

  /// The fields a person would type into that `fields` leaves empty: visible text fields with no
  /// value of their own (not hidden, not a button, a box or a choice).
  static func emptyFields(of form: HTMLForm, filling fields: [String: String]) -> [String] {
    form.fields.filter { field in
      !field.name.isEmpty && !field.isHidden && !field.isSubmitButton && !field.isCheckable && !field.disabled
        && field.control == .input && field.value.isEmpty && fields[field.name] == nil
    }.map(\.name)
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
      // Ids, not counts: a source keeps only its newest messages (an IMAP search its newest N), so
      // a count can stand still while a new message arrives.
      let messages = try await mailbox.messages(to: address)
      if let newest = messages.last, (newest["id"]?.intValue ?? 0) > inboxMark {
        if let code = newest["code"]?.stringValue { return code }
        throw .flow(WebAuthMessages.noCodeInMessage)
      }
      guard clock.now < deadline else { throw .flow(WebAuthMessages.noCodeArrived(address: address)) }
      do {
        try await Task.sleep(for: mailbox.pollInterval)
      } catch {
        throw .flow(OutboxMessages.cancelled)
      }
    }
  }

  /// How long the driver waits for a passwordless code to arrive.
  static let codeTimeout = Duration.seconds(5)
}
