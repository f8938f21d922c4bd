import AuthFlowCore

/// The messages of Web Auth (docs/protocol.md §2.2, §8), as Auth0.swift words them.
enum WebAuthMessages {
  /// v2 `WebAuthError.invalidInvitationURL`.
  static func invalidInvitationURL(_ url: String) -> String {
    "The invitation URL (\(url)) is missing the 'invitation' and/or the 'organization' query parameters."
  }
  /// A callback whose `state` is missing or differs from the one sent.
  static func invalidCallback(_ url: String) -> String {
    "Invalid callback URL: \(url)"
  }
  /// After ``invalidCallback(_:)`` when the state was sent only inside a request object.
  static let requestObjectIgnored =
    " — the state was sent only inside the request object and did not come back: the provider ignored the request "
    + "object instead of using it or answering request_not_supported (CheckStateInAuthorizationResponse, "
    + "OpenID Connect Core §6.1)"
  /// v2 `WebAuthError.noAuthorizationCode`.
  static func noAuthorizationCode(_ values: [String: String]) -> String {
    let items = values.keys.sorted().map { "\($0): \(values[$0] ?? "")" }.joined(separator: ", ")
    return "The callback URL is missing the authorization code in its query parameters ([\(items)])."
  }
  static func noCallback(stoppedAt kind: String, url: String, snippet: String) -> String {
    "the browser did not reach the callback: it stopped on \(Plural.indefinite(kind)) page (\(url)): \(snippet)"
  }
  /// A page with no form the driver can recognise or fill (a JavaScript app, an unrecognised
  /// form): never the provider's error.
  static func noFillableForm(url: String, forms: [String], snippet: String) -> String {
    let found = forms.isEmpty ? "it has no HTML form" : "none of its forms is one (\(forms.joined(separator: "; ")))"
    let text = snippet.isEmpty ? "" : "; the page says: \(snippet)"
    return "no login form authflow can fill: \(url): \(found)\(text). Describe the login in the tenant profile "
      + "(`login_pages.login` with the form's field names, or `login_pages.app` with the requests a JavaScript login "
      + "page sends) or drive the page with a real browser (`browser: chromium`)"
  }
  static func missingValues(for kind: String) -> String {
    "the \(kind) page was shown but the step gives no `\(kind)` values; add `\(kind): { … }` or `stop_at: \(kind)`"
  }
  static func pageError(kind: String, message: String) -> String {
    "the \(kind) page answered with an error: \(message)"
  }
  /// Why a page may have answered with an error: it shows fields the step's values did not fill.
  static func fieldsLeftEmpty(_ fields: [String], kind: String, given: [String]) -> String {
    let list = fields.map { "'\($0)'" }.joined(separator: ", ")
    let keys = given.isEmpty ? "none" : given.joined(separator: ", ")
    return "the \(kind) page has \(fields.count == 1 ? "a field" : "fields") \(list) that the step's values left empty "
      + "(they give: \(keys)); is a key misspelt, or named differently on this page? The tenant's `forms:` maps a "
      + "value to a field (`forms: { email: username }`)"
  }
  static func stopAtNotReached(_ wanted: String, reached: String) -> String {
    "stop_at: \(wanted) was not reached; the flow ended at \(reached)"
  }
  /// `error.code` when a login page answers a submission with an error (wrong password, …).
  static let pageErrorCode = StepErrorCode.pageError.code
  static let tooManyPages = "the Universal Login flow did not reach the callback after 10 pages"
  static func badTokenResponse(_ status: Int) -> String {
    "the token endpoint answered \(status) without a JSON body"
  }
  static func serverError(_ status: Int, url: String) -> String {
    "\(url) answered HTTP \(status): the tenant failed (a server error, not a login page)"
  }

  static func insecureForm(page: String, action: String) -> String {
    "the page \(page) submits its form to \(action) over plain HTTP: what was filled in (a password, a code) "
      + "would travel in the clear, so the form is not sent (a browser warns the same way)"
  }

  static func unreachable(_ message: String) -> String {
    "the tenant could not be reached: \(message)"
  }
  static let noRedirectURI = "the client profile has no `redirect_uri`; set `redirect_uri` on the step"
  static let noClientID = "the client profile has no `client_id`"
  /// A passwordless code page without `passwordless.code` on a tenant whose outbox cannot be read.
  static let noPasswordlessCode =
    "the passwordless code page was shown but the step gives no `passwordless: { code: … }` and the tenant has no "
    + "readable outbox (`mock_control`)"
  static let noCodeInMessage = "the message sent to the passwordless address holds no code"
  static func noCodeArrived(address: String) -> String {
    "no code was sent to \(address) after the passwordless page was submitted"
  }
}
