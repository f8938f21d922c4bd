import AuthFlowCore
public import AuthFlowHTTP
public import AuthFlowScenario
import Foundation

/// A tenant's `login_pages:`, resolved: how its login and consent forms are recognised and
/// filled, and how an app login page is signed in. Page recognition (``PageKind/classify(_:profile:)``)
/// is a function of an `HTMLDocument` and this profile, so any driver that produces a document
/// (the built-in HTML one, a real browser's rendered DOM) gets the same page kinds.
public struct LoginPageProfile: Sendable {
  /// A form page the profile describes.
  public struct FormDescription: Sendable {
    /// Which form is this page's; nil: a form with one of `fields`' names.
    public var selector: HTMLFormSelector?
    /// Logical value (`email`, `password`, …) → field name.
    public var fields: [String: String]
    /// The button to submit with (name, value, id or label); nil: the form's default button.
    public var submit: String?

    public init(selector: HTMLFormSelector? = nil, fields: [String: String] = [:], submit: String? = nil) {
      self.selector = selector
      self.fields = fields
      self.submit = submit
    }

    /// True when `form` (at `position` on its page) is the one described.
    func matches(_ form: HTMLForm, at position: Int) -> Bool {
      if let selector { return selector.matches(form, at: position) }
      return fields.values.contains { form.field(named: $0) != nil }
    }
  }

  /// A login page that is an app (`login_pages.app`).
  public struct AppLogin: Sendable {
    /// The page's URL path suffix; nil: any page with no form authflow can fill.
    public var page: String?
    public var requests: [LoginPagesProfile.AppRequest]
    public var continueParameters: Template?
    public var continueURL: Template?
    /// `env` for the templates, as the tenant was resolved with.
    public var environment: [String: String]

    public init(
      page: String?, requests: [LoginPagesProfile.AppRequest], continueParameters: Template?, continueURL: Template?,
      environment: [String: String]
    ) {
      self.page = page
      self.requests = requests
      self.continueParameters = continueParameters
      self.continueURL = continueURL
      self.environment = environment
    }

    /// True when `document` is this app's page: its URL path ends with `page`, or, without one,
    /// the page has no form authflow can fill (`kind` unknown).
    func matches(_ document: HTMLDocument, kind: PageKind) -> Bool {
      guard let page else { return kind == .unknown }
      let path = URLComponents(string: document.url)?.path ?? document.url
      return path.hasSuffix(page)
    }

    /// A one-line description for messages and `doctor`: `POST /api/auth/ (json), then …`.
    public var summary: String {
      let requests = requests.map { request in
        let url = request.url.literalValue?.stringValue ?? "…"
        return "\(request.method.value) \(url)" + (request.encoding.map { " (\($0.rawValue))" } ?? "")
      }.joined(separator: ", ")
      let then = continueParameters != nil ? "the authorization request repeated" : "the continue URL"
      return "\(requests), then \(then)"
    }
  }

  /// `forms:` of the profile: logical value → field name, on every page.
  public var fieldNames: [String: String]
  public var login: FormDescription?
  public var consent: FormDescription?
  public var app: AppLogin?

  public init(
    fieldNames: [String: String] = [:], login: FormDescription? = nil, consent: FormDescription? = nil,
    app: AppLogin? = nil
  ) {
    self.fieldNames = fieldNames
    self.login = login
    self.consent = consent
    self.app = app
  }

  /// The description of a page kind, when the profile has one.
  func description(of kind: PageKind) -> FormDescription? {
    switch kind {
    case .login: return login
    case .consent: return consent
    default: return nil
    }
  }

  /// Field names the profile gives the identifier (`email`/`username`), on any page or the login
  /// page: a form with one of them is a login form.
  var identifierFields: Set<String> {
    let keys = ["email", "username"]
    return Set(keys.compactMap { fieldNames[$0] } + keys.compactMap { login?.fields[$0] })
  }

  /// True when the profile says anything about login pages.
  public var isEmpty: Bool { fieldNames.isEmpty && login == nil && consent == nil && app == nil }
}
