import AuthFlowCore
import Foundation

/// Where a navigation in chromium ended.
public enum ChromiumPageLoad: Sendable {
  /// The browser was sent to the callback (caught before it was requested).
  case callback(String)
  /// A settled page: its rendered DOM and the HTTP status of its document.
  case page(HTMLDocument, status: Int)
}

/// One tab of the run's chromium, driven over the DevTools protocol: every request it makes is
/// paused (`Fetch`), traced, and sent on — except a navigation to a callback, which is caught and
/// failed so the code never leaves the browser; redirects are looked at in their response head, so
/// custom-scheme and loopback callbacks are caught alike. Pages are read as rendered
/// (`outerHTML` after scripts ran and the network went quiet).
public actor ChromiumPage {
  private let connection: DevToolsConnection
  private let session: String
  private let target: String
  private let callbackPrefixes: [String]
  private let configuration: ChromiumHost.Configuration
  private let observe: @Sendable (HTTPExchange) -> Void
  private let clock = ContinuousClock()

  private var mainFrame: String?
  private var loading = false
  private var loadedAt: ContinuousClock.Instant?
  private var lastActivity: ContinuousClock.Instant
  private var callback: String?
  private var documentStatus = 200
  private var requests: [String: (HTTPRequest, Date, ContinuousClock.Instant)] = [:]
  private var events: Task<Void, Never>?

  init(
    connection: DevToolsConnection, session: String, target: String, callbackPrefixes: [String],
    configuration: ChromiumHost.Configuration, observe: @escaping @Sendable (HTTPExchange) -> Void
  ) {
    self.connection = connection
    self.session = session
    self.target = target
    self.callbackPrefixes = callbackPrefixes
    self.configuration = configuration
    self.observe = observe
    self.lastActivity = ContinuousClock.now
  }

  /// Turns on the domains the driver needs and starts handling the page's events.
  func prepare() async throws(ChromiumError) {
    let stream = await connection.listen(session: session)
    events = Task { [weak self] in
      for await event in stream {
        guard let self else { return }
        await self.handle(event)
      }
    }
    try await command("Page.enable")
    let patterns: Value = .array([
      .object(["urlPattern": "*", "requestStage": "Request"]),
      .object(["urlPattern": "*", "requestStage": "Response"]),
    ])
    try await command("Fetch.enable", .object(["patterns": patterns]))
    let tree = try await command("Page.getFrameTree")
    mainFrame = tree.member("frameTree")?.member("frame")?.member("id")?.stringValue
  }

  /// Opens `url` and waits for the callback or a settled page.
  public func navigate(_ url: String) async throws(ChromiumError) -> ChromiumPageLoad {
    callback = nil
    lastActivity = clock.now
    loadedAt = nil
    // Chromium answers once the response has started: the page's own deadline, not a command's.
    let started = clock.now
    let answer: Value
    do {
      answer = try await connection.command(
        "Page.navigate", .object(["url": .string(url)]), session: session, timeout: configuration.pageTimeout)
    } catch {
      guard clock.now - started >= configuration.pageTimeout else { throw error }
      throw ChromiumError(
        message: ChromiumMessages.pageTimedOut(SensitiveData.maskURL(url), after: configuration.pageTimeout))
    }
    if let callback { return .callback(callback) }
    if let error = answer.member("errorText")?.stringValue, !error.isEmpty {
      throw ChromiumError(message: ChromiumMessages.navigationFailed(SensitiveData.maskURL(url), reason: error))
    }
    return try await settle(url: url)
  }

  /// Fills the fields of form `index` of the page as a person would (events fired, so scripts
  /// see the values) and clicks its submit button: `submitter` (its name and value), else the
  /// first enabled one; a form without one is submitted with `requestSubmit()`.
  public func submit(
    formIndex: Int, values: [String: String], submitter: HTMLFormField?
  ) async throws(ChromiumError) -> ChromiumPageLoad {
    callback = nil
    loadedAt = nil
    let url = try await currentURL()
    let submitterValue: Value =
      submitter.map { .object(["name": .string($0.name), "value": .string($0.value)]) } ?? .null
    let arguments = [Value.int(formIndex), .object(values.mapValues(Value.string)), submitterValue]
      .map { $0.jsonText(revealSecrets: true) }.joined(separator: ",")
    lastActivity = clock.now
    let answer = try await command(
      "Runtime.evaluate",
      .object(["expression": .string("(\(Self.submitScript))(\(arguments))"), "returnByValue": .bool(true)]))
    guard answer.member("result")?.member("value") == .bool(true) else {
      throw ChromiumError(message: ChromiumMessages.formNotInPage(index: formIndex))
    }
    lastActivity = clock.now
    loadedAt = loading ? nil : clock.now
    return try await settle(url: url)
  }

  /// After a submission that left the page as it was (same URL, same forms, no message shown): a
  /// script may still be at work (a JSON login, then a navigation) and, on a loaded machine, slower
  /// than the quiet period. Waits up to `limit` for the callback, another URL, another set of forms
  /// or a message, and returns that load once settled; nil when nothing changed.
  public func awaitChange(from before: HTMLDocument, limit: Duration) async throws(ChromiumError) -> ChromiumPageLoad? {
    let deadline = clock.now.advanced(by: limit)
    let shape = Self.shape(before)
    while clock.now < deadline {
      guard !Task.isCancelled else { throw ChromiumError(message: ChromiumMessages.stopped) }
      if let callback { return .callback(callback) }
      try? await Task.sleep(for: .milliseconds(100))
      if let callback { return .callback(callback) }
      if loading { continue }
      guard let now = try? await document() else { continue }
      if now.url != before.url || Self.shape(now) != shape || !now.errorMessages.isEmpty {
        lastActivity = clock.now
        return try await settle(url: now.url)
      }
    }
    return nil
  }

  /// What a page's forms are, whatever values a script typed into them.
  private static func shape(_ document: HTMLDocument) -> [String] {
    document.forms.map { "\($0.method) \($0.action) \($0.fieldNames)" }
  }

  /// The page as rendered now.
  public func document() async throws(ChromiumError) -> HTMLDocument {
    let answer = try await command(
      "Runtime.evaluate",
      .object([
        "expression":
          "({url: location.href, html: document.documentElement ? document.documentElement.outerHTML : ''})",
        "returnByValue": .bool(true),
      ]))
    let value = answer.member("result")?.member("value")
    let url = value?.member("url")?.stringValue ?? ""
    let html = value?.member("html")?.stringValue ?? ""
    return HTMLDocument.parse(Array(html.utf8), url: url)
  }

  /// The HTTP status of the page's document.
  public var status: Int { documentStatus }

  /// Closes the tab, even when the step was cancelled (a timeout, an interruption): the close is
  /// its own task, which the cancellation does not reach.
  public func close() async {
    events?.cancel()
    let connection = self.connection
    let session = self.session
    let target = self.target
    let timeout = configuration.commandTimeout
    await Task {
      await connection.stopListening(session: session)
      _ = try? await connection.command(
        "Target.closeTarget", .object(["targetId": .string(target)]), timeout: timeout)
    }.value
  }

  // MARK: Waiting

  /// Waits until the callback was caught, or the main frame has loaded and the network has been
  /// quiet for ``ChromiumHost/Configuration/quietPeriod`` (or ``settleLimit`` passed since it
  /// loaded); a page that does not load within ``pageTimeout`` is an error.
  private func settle(url: String) async throws(ChromiumError) -> ChromiumPageLoad {
    let deadline = clock.now.advanced(by: configuration.pageTimeout)
    while true {
      if let callback { return .callback(callback) }
      let now = clock.now
      if !loading, now - lastActivity >= configuration.quietPeriod { break }
      if !loading, let loadedAt, now - loadedAt >= configuration.settleLimit { break }
      guard now < deadline else {
        throw ChromiumError(
          message: ChromiumMessages.pageTimedOut(SensitiveData.maskURL(url), after: configuration.pageTimeout))
      }
      guard !Task.isCancelled else { throw ChromiumError(message: ChromiumMessages.stopped) }
      try? await Task.sleep(for: .milliseconds(25))
    }
    // A script may be navigating right now (its execution context goes away): read again.
    var attempt = 0
    while true {
      do {
        return .page(try await document(), status: documentStatus)
      } catch  where attempt < 2 {
        attempt += 1
        if let callback { return .callback(callback) }
        try? await Task.sleep(for: .milliseconds(100))
      }
    }
  }

  private func currentURL() async throws(ChromiumError) -> String {
    let answer = try await command(
      "Runtime.evaluate", .object(["expression": "location.href", "returnByValue": .bool(true)]))
    return answer.member("result")?.member("value")?.stringValue ?? ""
  }

  // MARK: Events

  private func handle(_ event: DevToolsEvent) async {
    lastActivity = clock.now
    let params = event.params
    switch event.method {
    case "Fetch.requestPaused":
      await paused(params)
    case "Page.frameStartedLoading":
      if params.member("frameId")?.stringValue == mainFrame {
        loading = true
        loadedAt = nil
      }
    case "Page.frameStoppedLoading":
      if params.member("frameId")?.stringValue == mainFrame {
        loading = false
        loadedAt = clock.now
      }
    case "Page.frameRequestedNavigation":
      // A script sending the page to a custom-scheme callback (`location = "app://cb?code=…"`).
      if let url = params.member("url")?.stringValue, isCallback(url) { caught(url) }
    default:
      break
    }
  }

  private func paused(_ params: Value) async {
    guard let id = params.member("requestId")?.stringValue,
      let request = params.member("request"), let url = request.member("url")?.stringValue
    else { return }
    let method = HTTPMethod(rawValue: request.member("method")?.stringValue ?? "GET")
    guard let status = params.member("responseStatusCode")?.intValue else {
      // The request stage: a callback is caught here and never sent.
      var headers = HTTPHeaderFields()
      for (name, value) in (request.member("headers")?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
        headers.add(name: name, value: value.stringValue ?? "")
      }
      let body = Array((request.member("postData")?.stringValue ?? "").utf8)
      let outgoing = HTTPRequest(method: method, url: url, headers: headers, body: body)
      if isCallback(url) {
        caught(url)
        observe(
          HTTPExchange(request: outgoing, outcome: .failure(Self.caughtError(url)), startedAt: Date(), duration: .zero))
        fail(id)
        return
      }
      requests[id] = (outgoing, Date(), clock.now)
      proceed(id)
      return
    }
    // The response stage: the head of the answer, a redirect's `Location` looked at before it is
    // followed.
    var headers = HTTPHeaderFields()
    for header in params.member("responseHeaders")?.arrayValue ?? [] {
      headers.add(name: header.member("name")?.stringValue ?? "", value: header.member("value")?.stringValue ?? "")
    }
    let started = requests.removeValue(forKey: id)
    let outgoing = started?.0 ?? HTTPRequest(method: method, url: url)
    let response = HTTPResponse(status: status, headers: headers, url: url)
    observe(
      HTTPExchange(
        request: outgoing, outcome: .success(response), startedAt: started?.1 ?? Date(),
        duration: started.map { clock.now - $0.2 } ?? .zero))
    if params.member("resourceType")?.stringValue == "Document", params.member("frameId")?.stringValue == mainFrame {
      documentStatus = status
    }
    if (300...399).contains(status), let location = response.location,
      let target = URLResolution.resolve(location, against: url), isCallback(target)
    {
      caught(target)
      observe(
        HTTPExchange(
          request: HTTPRequest(method: .get, url: target), outcome: .failure(Self.caughtError(target)),
          startedAt: Date(), duration: .zero))
      fail(id)
      return
    }
    proceed(id)
  }

  private func caught(_ url: String) {
    if callback == nil { callback = url }
  }

  private static func caughtError(_ url: String) -> TransportError {
    TransportError(
      kind: .other, message: "caught by authflow at the callback \(url): not sent to the app", url: url)
  }

  private func isCallback(_ url: String) -> Bool {
    guard let scheme = URLParts.scheme(of: url)?.lowercased() else { return false }
    if scheme != "http" && scheme != "https" {
      // A local file is never an app's callback (and is how a saved page, e.g. an HTML report, opens).
      return !["about", "data", "blob", "javascript", "chrome", "chrome-error", "file"].contains(scheme)
    }
    return callbackPrefixes.contains { url.hasPrefix($0) }
  }

  private func proceed(_ id: String) {
    let connection = self.connection
    let session = self.session
    let timeout = configuration.commandTimeout
    Task {
      _ = try? await connection.command(
        "Fetch.continueRequest", .object(["requestId": .string(id)]), session: session, timeout: timeout)
    }
  }

  private func fail(_ id: String) {
    let connection = self.connection
    let session = self.session
    let timeout = configuration.commandTimeout
    Task {
      _ = try? await connection.command(
        "Fetch.failRequest", .object(["requestId": .string(id), "errorReason": "Aborted"]), session: session,
        timeout: timeout)
    }
  }

  /// A DevTools command on this page's session (internal: the tests that operate a page, e.g. the
  /// HTML report's filters, send input events with it).
  @discardableResult
  func command(_ method: String, _ params: Value = .object([:])) async throws(ChromiumError) -> Value {
    try await connection.command(method, params, session: session, timeout: configuration.commandTimeout)
  }

  /// Fills and submits a form in the page (arguments: form index, name → value, submitter).
  static let submitScript = """
    function (index, values, submitter) {
      const form = document.forms[index];
      if (!form) return false;
      const isSubmit = (e) => (e.tagName === 'BUTTON' && (e.getAttribute('type') || 'submit').toLowerCase() === 'submit')
        || (e.tagName === 'INPUT' && ['submit', 'image'].includes((e.type || '').toLowerCase()));
      const controls = Array.from(form.elements);
      for (const [name, value] of Object.entries(values)) {
        const named = controls.filter((e) => e.name === name && !isSubmit(e));
        const first = named[0];
        if (!first) continue;
        const type = (first.type || '').toLowerCase();
        if (type === 'radio') {
          for (const e of named) e.checked = e.value === value;
        } else if (type === 'checkbox') {
          first.checked = !['', 'false', 'off', '0', 'no'].includes(value.toLowerCase());
        } else if (first.tagName === 'SELECT') {
          first.value = value;
        } else {
          const proto = first.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
          Object.getOwnPropertyDescriptor(proto, 'value').set.call(first, value);
        }
        first.dispatchEvent(new Event('input', { bubbles: true }));
        first.dispatchEvent(new Event('change', { bubbles: true }));
      }
      const buttons = controls.filter((e) => isSubmit(e) && !e.disabled);
      const button = submitter
        ? buttons.find((e) => e.name === submitter.name && e.value === submitter.value) || null
        : buttons[0] || null;
      setTimeout(() => { if (button) { button.click(); } else { form.requestSubmit(); } }, 0);
      return true;
    }
    """
}
