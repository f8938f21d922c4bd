public import AuthFlowCore
public import AuthFlowYAML

/// A tenant's `login_pages:` (issue 16 items 4 and 4b): how authflow recognises and fills the
/// provider's login and consent forms, and how it signs in where the login page is a
/// JavaScript app with no form. The built-in heuristics remain the fallback.
///
/// Form descriptions are evaluated when the tenant is resolved (`${{ env.X }}` only); an app
/// login's requests and continuation are templates evaluated when a step signs in, with the
/// step's `login` values, the app `page` and the previous login `response` in scope.
public struct LoginPagesProfile: Sendable {
  /// A form page (`login`, `consent`): which form, which fields, which button.
  public struct Form: Sendable {
    /// `#id` or `[action*=TEXT]`: the form of this kind on a page (any page showing it is one).
    public var form: Located<String>?
    /// Logical value (`email`, `password`, …) → the form's field name; a page with one of these
    /// fields is a page of this kind.
    public var fields: [Binding]
    /// The submit button to press: its name, value, id or label.
    public var submit: Template?
    public var location: SourceLocation

    public init(form: Located<String>? = nil, fields: [Binding] = [], submit: Template? = nil, location: SourceLocation)
    {
      self.form = form
      self.fields = fields
      self.submit = submit
      self.location = location
    }
  }

  /// One request of an app login.
  public struct AppRequest: Sendable {
    /// The body's encoding.
    public enum Encoding: String, Sendable, CaseIterable {
      case json, form
    }

    /// `GET`, `POST`, `PUT` or `PATCH`.
    public var method: Located<String>
    /// Absolute, or relative to the app page's URL.
    public var url: Template
    public var encoding: Encoding?
    /// The body (`json:` or `form:`), templated.
    public var body: Template?
    public var location: SourceLocation

    public init(
      method: Located<String>, url: Template, encoding: Encoding? = nil, body: Template? = nil,
      location: SourceLocation
    ) {
      self.method = method
      self.url = url
      self.encoding = encoding
      self.body = body
      self.location = location
    }
  }

  /// A login page that is an app: the requests its script sends, then where the browser goes.
  public struct App: Sendable {
    /// The app page's URL path (the page is recognised when its path ends with this); without it,
    /// any page with no form authflow can fill where a login is expected.
    public var page: Template?
    public var requests: [AppRequest]
    /// `continue.parameters`: repeat the authorization request with these added.
    public var continueParameters: Template?
    /// `continue.url`: go there instead (absolute, or relative to the page).
    public var continueURL: Template?
    public var location: SourceLocation

    public init(
      page: Template? = nil, requests: [AppRequest] = [], continueParameters: Template? = nil,
      continueURL: Template? = nil, location: SourceLocation
    ) {
      self.page = page
      self.requests = requests
      self.continueParameters = continueParameters
      self.continueURL = continueURL
      self.location = location
    }
  }

  public var login: Form?
  public var consent: Form?
  public var app: App?
  public var location: SourceLocation

  public init(login: Form? = nil, consent: Form? = nil, app: App? = nil, location: SourceLocation) {
    self.login = login
    self.consent = consent
    self.app = app
    self.location = location
  }

  /// The keys of `login_pages:`.
  public static let keys = ["login", "consent", "app"]
  /// The keys of a form description.
  public static let formKeys = ["form", "fields", "submit"]
  /// The keys of `app:`.
  public static let appKeys = ["page", "requests", "continue"]
  /// The keys of an app request.
  public static let requestKeys = ["method", "url", "json", "form"]
  /// The keys of `continue:`.
  public static let continueKeys = ["parameters", "url"]
  /// The methods an app request may use.
  public static let methods = ["GET", "POST", "PUT", "PATCH"]

  /// True when `text` is a form selector `login_pages` accepts: `#id`, `[action*=TEXT]`, either
  /// optionally after `form`.
  public static func isFormSelector(_ text: String) -> Bool {
    var rest = Substring(text)
    if rest.hasPrefix("form") { rest = rest.dropFirst(4) }
    if rest.hasPrefix("#") { return rest.count > 1 && !rest.contains(where: { $0.isWhitespace || $0 == "[" }) }
    return rest.hasPrefix("[action*=") && rest.hasSuffix("]") && rest.count > "[action*=]".count
  }
}
