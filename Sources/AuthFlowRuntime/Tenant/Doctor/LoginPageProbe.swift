import AuthFlowCore
import AuthFlowHTTP

/// `doctor`'s look at the login page (issue 16 item 4c): for each client profile that signs users
/// in at the authorization endpoint, an authorization request in a fresh browser, and the first
/// page it lands on recognised as `web_auth` would (``PageKind/classify(_:profile:)`` with the
/// tenant's `login_pages`): whether authflow can sign in there, and how. Nothing is submitted.
struct LoginPageProbe: Sendable {
  var transport: any HTTPTransport

  /// The checks, and whether the tenant failed as an environment (unreachable, 5xx).
  func checks(_ tenant: TenantContext) async -> (checks: [DoctorReport.Check], environmentFailure: Bool) {
    guard let endpoint = tenant.endpoints.authorization else { return ([], false) }
    var checks: [DoctorReport.Check] = []
    var environmentFailure = false
    for (name, client) in tenant.clients.sorted(by: { $0.key < $1.key }) {
      let profile = ClientProfile(client)
      guard let clientID = profile.clientID, let redirectURI = profile.redirectURI, Self.signsUsersIn(profile)
      else { continue }
      var options = AuthorizeRequest.Options(clientID: clientID, redirectURI: redirectURI)
      let grants = profile.grantTypes ?? []
      if !grants.isEmpty, !grants.contains("authorization_code") { options.responseType = "id_token" }
      let request = AuthorizeRequest(options)
      let browser = Browser(name: "doctor-\(name)", transport: transport, callbackPrefixes: [redirectURI])
      let response: BrowserResponse
      do {
        response = try await browser.get(request.url(endpoint: endpoint))
      } catch {
        checks.append(
          .init(
            .loginPages, .failed, Messages.unreachable(name, error.message), fix: TenantDoctor.Messages.discoveryFix))
        environmentFailure = true
        continue
      }
      if let callback = response.callbackURL {
        checks.append(Self.callbackCheck(name, callback))
        continue
      }
      let url = Self.shortURL(response.url)
      if response.response.status >= 500 {
        checks.append(.init(.loginPages, .failed, Messages.serverError(name, url, response.response.status)))
        environmentFailure = true
        continue
      }
      checks.append(Self.pageCheck(name, document: HTMLDocument.parse(response.response), url: url, tenant: tenant))
    }
    return (checks, environmentFailure)
  }

  /// A page URL without its query (the authorization request it carries is long and says nothing
  /// about the page): `https://op/login?…`.
  static func shortURL(_ url: String) -> String {
    guard let index = url.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return url }
    return String(url[..<index]) + "?…"
  }

  /// Clients that sign users in through the browser: not machine-to-machine, and with a grant the
  /// authorization endpoint serves when grants are listed.
  static func signsUsersIn(_ client: ClientProfile) -> Bool {
    if client.type == "m2m" { return false }
    let grants = client.grantTypes ?? []
    return grants.isEmpty || grants.contains("authorization_code") || grants.contains("implicit")
  }

  static func callbackCheck(_ name: String, _ callback: String) -> DoctorReport.Check {
    let parameters = CallbackParameters(url: callback)
    if let error = parameters["error"] {
      return .init(
        .loginPages, .failed, Messages.refusedAtCallback(name, error, parameters["error_description"]),
        fix: Messages.registrationFix)
    }
    return .init(.loginPages, .info, Messages.noLoginPage(name))
  }

  static func pageCheck(
    _ name: String, document: HTMLDocument, url: String, tenant: TenantContext
  )
    -> DoctorReport.Check
  {
    let profile = tenant.loginPageProfile
    let (kind, app) = PageKind.recognize(document, profile: profile)
    if let app { return .init(.loginPages, .passed, Messages.app(name, url, summary: app.summary)) }
    if kind == .error {
      let error = document.errorMessages.first ?? document.element(id: "error-code")?.text ?? document.snippet()
      return .init(.loginPages, .failed, Messages.refused(name, url, error), fix: Messages.registrationFix)
    }
    guard kind != .unknown, let form = PageKind.form(of: kind, in: document, profile: profile) else {
      return .init(
        .loginPages, .failed, Messages.noForm(name, url, forms: document.forms.map(\.summary), document.snippet()),
        fix: Messages.noFormFix)
    }
    let how: String
    if let description = profile.description(of: kind),
      document.forms.enumerated().contains(where: { description.matches($0.element, at: $0.offset) })
    {
      how = "as the profile's login_pages.\(kind.rawValue) describes it"
    } else if !profile.identifierFields.isDisjoint(with: form.fieldNames) {
      how = "by the field names of the profile's `forms`"
    } else {
      how = "by the built-in field names"
    }
    return .init(.loginPages, .passed, Messages.form(name, url, kind: kind.rawValue, form: form.summary, how: how))
  }

  enum Messages {
    static func form(_ name: String, _ url: String, kind: String, form: String, how: String) -> String {
      "\(name): \(url) is \(Plural.indefinite(kind)) page authflow can fill (\(form)), recognised \(how)"
    }
    static func app(_ name: String, _ url: String, summary: String) -> String {
      "\(name): \(url) is a login app with no form; authflow signs in as the profile's login_pages.app says (\(summary))"
    }
    static func noForm(_ name: String, _ url: String, forms: [String], _ snippet: String) -> String {
      let found = forms.isEmpty ? "no HTML form" : "no form it recognises (\(forms.joined(separator: "; ")))"
      return "\(name): no login form authflow can fill at \(url): \(found)"
        + (snippet.isEmpty ? "" : "; the page says: \(snippet)")
    }
    static let noFormFix =
      "describe the login in the tenant profile (`login_pages.login` with the form's field names, or "
      + "`login_pages.app` with the requests a JavaScript login page sends), or drive it with a real browser "
      + "(`browser: chromium`)"
    static func refused(_ name: String, _ url: String, _ error: String) -> String {
      "\(name): the authorization request was refused with an error page (\(url)): \(error)"
    }
    static func refusedAtCallback(_ name: String, _ error: String, _ description: String?) -> String {
      "\(name): the authorization request was refused at the callback: \(error)"
        + (description.map { " (\($0))" } ?? "")
    }
    static let registrationFix =
      "register the client's redirect_uri and grant (authorization code) on the provider, as docs/real-tenants.md says"
    static func noLoginPage(_ name: String) -> String {
      "\(name): the provider answered the authorization request at the callback without a login page"
    }
    static func unreachable(_ name: String, _ detail: String) -> String {
      "\(name): the authorization endpoint could not be reached: \(detail)"
    }
    static func serverError(_ name: String, _ url: String, _ status: Int) -> String {
      "\(name): \(url) answered HTTP \(status) to the authorization request"
    }
  }
}
