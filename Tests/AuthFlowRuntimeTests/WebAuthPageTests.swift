import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
import Testing

@testable import AuthFlowRuntime

/// Page recognition, form field mapping, callback parsing and the /authorize request, without a
/// network.
@Suite("Web Auth pieces")
struct WebAuthPageTests {
  static func page(_ body: String, url: String = "https://idp.example.com/u/page") -> HTMLDocument {
    HTMLDocument.parse(Array("<html><head><title>T</title></head><body>\(body)</body></html>".utf8), url: url)
  }

  @Test(
    "Pages are recognised from their forms and markers",
    arguments: [
      (
        #"<form method="post" action="/u/login"><input name="username"><input type="password" name="password"><button>Go</button></form>"#,
        PageKind.login
      ),
      (#"<form method="post" action="/u/login/identifier"><input name="username"><button>Go</button></form>"#, .login),
      (
        #"<form id="signup-form" method="post" action="/u/signup"><input name="email"><input type="password" name="password"></form>"#,
        .signup
      ),
      (#"<form method="post" action="/u/mfa-otp-challenge"><input name="code"><button>Go</button></form>"#, .mfa),
      (#"<form method="post" action="/verify"><input name="otp"></form>"#, .mfa),
      (
        #"<form method="post" action="/u/consent"><button name="action" value="accept">Accept</button><button name="action" value="deny">Deny</button></form>"#,
        .consent
      ),
      (#"<h1>Oops</h1><p id="error-code">invalid_request</p><p id="error-message">Bad</p>"#, .error),
      (#"<h1>Hello</h1><p>Nothing to do here</p>"#, .unknown),
    ])
  func pageKinds(_ html: String, _ expected: PageKind) {
    #expect(PageKind.classify(Self.page(html)) == expected)
  }

  /// oidc-provider-mock's error page: a `link` before any `<html>` or `<body>`, then `main`, which
  /// libxml2 leaves in `head`; a browser shows it, and so does the driver.
  @Test("A page whose content libxml2 leaves in head is read as a browser shows it")
  func contentLeftInHead() {
    let html =
      "<!doctype html>\n<link\n  rel=\"stylesheet\"\n  href=\"https://cdn.example/pico.css\"\n/>\n<main class=\"container\">\n"
      + "  <h1>Error: unsupported_response_type</h1>\n  <p>The response type is not supported</p>\n</main>\n"
    let document = HTMLDocument.parse(Array(html.utf8), url: "http://127.0.0.1:9400/oauth2/authorize")
    #expect(document.text.contains("The response type is not supported"), "\(document.text)")
    #expect(PageKind.classify(document) == .error)
    #expect(PageResult(kind: .error, document: document, status: 400).errorCode == "unsupported_response_type")
    // head's own text (a title) is still not page text.
    let titled = HTMLDocument.parse(
      Array("<html><head><title>Sign in</title></head><body><p>Hello</p></body></html>".utf8), url: "http://x/")
    #expect(titled.text == "Hello" && titled.title == "Sign in")
  }

  /// django-oauth-toolkit's authorization error page: no form, no error markers, a heading.
  @Test("A page with no form whose heading reads 'Error: code' is an error page with its code and message")
  func errorHeading() {
    let document = Self.page(
      #"<div class="block-center"><h2>Error: invalid_request</h2><p>Mismatching redirect URI.</p></div>"#)
    #expect(PageKind.classify(document) == .error)
    let result = PageResult(kind: .error, document: document, status: 400)
    #expect(result.errorCode == "invalid_request")
    #expect(result.error == "Mismatching redirect URI.")
    // A heading that names no code still makes an error page, with no code of its own.
    let plain = Self.page(#"<h1>Error</h1><p>Something went wrong.</p>"#)
    #expect(PageKind.classify(plain) == .error)
    #expect(PageResult(kind: .error, document: plain, status: 400).errorCode == nil)
    // Not on a page with a form (a login page headed "Error: try again" is still a login page), nor
    // for a heading without the word "error" itself.
    let form = Self.page(
      #"<h2>Error: try again</h2><form method="post" action="/login"><input name="username"><input type="password" name="password"></form>"#
    )
    #expect(PageKind.classify(form) == .login)
    let named = Self.page(#"<h1>Redirect URI Error</h1><p>The request fails due to a mismatching redirect_uri.</p>"#)
    #expect(PageKind.classify(named) == .error)
    #expect(PageResult(kind: .error, document: named, status: 400).error?.hasPrefix("The request fails") == true)
    #expect(PageKind.classify(Self.page(#"<h1>Errors and omissions</h1><p>Hi</p>"#)) == .unknown)
  }

  @Test("A page result keeps the fields, hides hidden values, and reads the error")
  func pageResult() {
    let document = Self.page(
      #"<div id="error-message">Wrong email or password.</div><form method="post" action="/u/login"><input type="hidden" name="_csrf" value="tok"><input name="username" value="a@b.c"><input type="password" name="password"></form>"#
    )
    let result = PageResult(kind: .login, document: document, status: 400).value
    #expect(result.member("kind")?.stringValue == "login")
    #expect(result.member("error")?.stringValue == "Wrong email or password.")
    #expect(result.member("fields")?.member("username")?.stringValue == "a@b.c")
    #expect(result.member("fields")?.member("_csrf")?.isSecret == true)
  }

  @Test("email fills username by default; a tenant's `forms` setting overrides the field name")
  func fieldOverrides() throws {
    let form = try #require(
      Self.page(
        #"<form method="post" action="/login"><input name="username"><input name="user_email"><input type="password" name="pwd"></form>"#
      ).forms.first)
    let plain = FormFieldMapping(settings: [:])
    #expect(plain.fieldValues(["email": "a@b.c", "password": "p"], for: form) == ["username": "a@b.c"])
    let overridden = FormFieldMapping(
      settings: ["forms": .object(["email": .string("user_email"), "password": .string("pwd")])])
    #expect(
      overridden.fieldValues(["email": "a@b.c", "password": "p"], for: form) == ["user_email": "a@b.c", "pwd": "p"])
  }

  @Test("Callback: fragment values are raw (not percent-decoded), query values decoded, query wins")
  func callbackParsing() {
    let callback = CallbackParameters(
      url: "com.example.app://cb?state=q%20s#access_token=a%2Bb%3D&state=fragment&token_type=Bearer")
    #expect(callback["access_token"] == "a%2Bb%3D")
    #expect(callback["state"] == "q s")
    #expect(callback["token_type"] == "Bearer")
    #expect(callback.stateMismatch(expected: "q s", url: "x") == nil)
    #expect(callback.stateMismatch(expected: "other", url: "x") == "Invalid callback URL: x")
  }

  @Test("Callback errors become protocol errors with status 302")
  func callbackError() throws {
    let callback = CallbackParameters(url: "app://cb?error=access_denied&error_description=no%20way&state=s")
    let error = try #require(callback.protocolError)
    #expect(error.code == "access_denied")
    #expect(error.description == "no way")
    #expect(error.status == 302)
  }

  @Test("/authorize: openid prepended, 43-char state/nonce/verifier, S256 challenge, parameters override")
  func authorizeRequest() throws {
    var options = AuthorizeRequest.Options(clientID: "cid", redirectURI: "app://cb")
    options.scope = "email"
    options.extra = [("prompt", "login"), ("scope", "profile")]
    let request = AuthorizeRequest(options)
    #expect(request.parameters["scope"] == "openid profile")
    #expect(request.parameters["prompt"] == "login")
    #expect(request.state.count == 43)
    #expect(request.nonce?.count == 43)
    let verifier = try #require(request.codeVerifier)
    #expect(verifier.count == 43)
    #expect(request.parameters["code_challenge"] == PKCE.challenge(for: verifier))
    #expect(request.parameters["code_challenge_method"] == "S256")
    #expect(
      AuthorizeRequest(AuthorizeRequest.Options(clientID: "c", redirectURI: "r")).parameters["scope"]
        == "openid profile email")
  }

  @Test("An invitation URL gives organization and invitation; a broken one gives nil")
  func invitation() {
    let found = AuthorizeRequest.invitation(
      from: "https://app/login?invitation=i1&organization=org_1&organization_name=x")
    #expect(found?.organization == "org_1")
    #expect(found?.invitation == "i1")
    #expect(AuthorizeRequest.invitation(from: "https://app/login?organization=org_1") == nil)
    #expect(
      WebAuthMessages.invalidInvitationURL("u")
        == "The invitation URL (u) is missing the 'invitation' and/or the 'organization' query parameters.")
  }

  @Test("Lock parameters: defaults, device only with offline_access, the current connection's scopes")
  func lockParameters() {
    let defaults = LockParameters([:]).payload(connection: nil)
    #expect(defaults.map(\.0) == ["scope", "device"])
    #expect(defaults.first?.1 == "openid offline_access")
    let encoded = LockParameters([
      "scope": .array([.string("openid")]), "device": .string("d"),
      "connection_scopes": .object(["github": .array([.string("repo"), .string("gist")]), "x": .array([.string("y")])]),
      "offline_mode": .bool(true),
    ]).payload(connection: "github")
    let payload = Dictionary(encoded, uniquingKeysWith: { first, _ in first })
    #expect(payload == ["scope": "openid", "connection_scope": "repo,gist", "offline_mode": "true"])
  }
}

/// Page recognition by the tenant profile (`login_pages`, `forms`), then the heuristics; and the
/// spinner of a single-page app is not an error message.
@Suite("Web Auth pages by profile")
struct WebAuthProfilePageTests {
  static let sub =
    #"<form id="f" method="post" action="/authorize/decide"><input name="sub"><button>Go</button></form>"#

  @Test("a form with only `sub` is unknown to the heuristics and a login form once the profile names it")
  func subField() throws {
    let page = WebAuthPageTests.page(Self.sub)
    #expect(PageKind.classify(page) == .unknown)
    #expect(PageKind.classify(page, profile: LoginPageProfile(fieldNames: ["email": "sub"])) == .login)
    let described = LoginPageProfile(login: .init(fields: ["email": "sub"]))
    #expect(PageKind.classify(page, profile: described) == .login)
    #expect(PageKind.form(of: .login, in: page, profile: described)?.id == "f")
    let mapping = FormFieldMapping(profile: described)
    let form = try #require(page.forms.first)
    #expect(mapping.fieldValues(["email": "a@b.c", "password": "p"], for: form, kind: .login) == ["sub": "a@b.c"])
  }

  @Test("a profile's form selector picks its form over an earlier one the heuristics would take")
  func selectorWins() {
    let page = WebAuthPageTests.page(
      #"<form id="search" action="/login/search"><input name="q"></form><form id="signin" action="/x"><input name="who"></form>"#
    )
    #expect(PageKind.form(of: .login, in: page)?.id == "search")
    let profile = LoginPageProfile(login: .init(selector: HTMLFormSelector(profileSelector: "#signin")))
    #expect(PageKind.form(of: .login, in: page, profile: profile)?.id == "signin")
    let byAction = LoginPageProfile(login: .init(selector: HTMLFormSelector(profileSelector: "form[action*=/x]")))
    #expect(PageKind.form(of: .login, in: page, profile: byAction)?.id == "signin")
    #expect(HTMLFormSelector(profileSelector: "div.login") == nil)
  }

  @Test("an app login applies to its page path, or without one to a page with no form authflow can fill")
  func appRecognition() {
    func app(_ page: String?) -> LoginPageProfile {
      LoginPageProfile(
        app: .init(page: page, requests: [], continueParameters: nil, continueURL: nil, environment: [:]))
    }
    let spinner = #"<div role="alert" aria-busy="true">Loading...</div>"#
    let appPage = WebAuthPageTests.page(spinner, url: "https://op.example.com/login.html?return_to=x")
    #expect(PageKind.recognize(appPage, profile: LoginPageProfile()).kind == .unknown)
    #expect(PageKind.recognize(appPage, profile: app("/login.html")).kind == .login)
    #expect(PageKind.recognize(appPage, profile: app("/login.html")).app != nil)
    #expect(PageKind.recognize(appPage, profile: app("/signin")).app == nil)
    #expect(PageKind.recognize(appPage, profile: app(nil)).kind == .login)
    let formPage = WebAuthPageTests.page(
      #"<form action="/u/login"><input name="username"><input type="password" name="password"></form>"#)
    #expect(PageKind.recognize(formPage, profile: app(nil)).app == nil, "a fillable form is not the app's page")
  }

  @Test(
    "a loading indicator in an alert region is not an error message; a real alert still is",
    arguments: [
      (#"<div role="alert" aria-busy="true">Working</div>"#, nil),
      (#"<div role="alert">Loading...</div>"#, nil),
      (#"<div role="alert">Please wait…</div>"#, nil),
      (#"<div class="error spinner">x</div>"#, nil),
      (#"<div id="error-message" class="loader">x</div>"#, nil),
      (#"<div role="alert">Loading failed: invalid_request</div>"#, "Loading failed: invalid_request"),
      (#"<div role="alert">Wrong email or password.</div>"#, "Wrong email or password."),
    ] as [(String, String?)])
  func loadingIsNotAnError(_ html: String, _ expected: String?) {
    let page = WebAuthPageTests.page(html)
    #expect(page.errorMessages.first == expected)
    #expect(PageKind.classify(page) == (expected == nil ? .unknown : .error))
  }
}
