import AuthFlowCore
import AuthFlowHTTP
import Foundation

/// What a Universal Login (or any OpenID Provider) page is, judged from its forms, fields and
/// markers: the same rules work for Auth0's pages, the mock's, and most providers'.
enum PageKind: String, Sendable, CaseIterable {
  case login, signup, mfa, consent, organization, callback, error, unknown
  /// A passwordless connection's address page (email or phone number, no password).
  case passwordless
  /// A passwordless connection's code page (the code sent by email or SMS).
  case passwordlessCode = "passwordless_code"

  /// Field names that hold the identifier on login pages (Auth0 uses `username`).
  static let identifierFields = ["email", "username", "identifier", "login"]
  /// Field names of the organization prompt (the mock's, Auth0's).
  static let organizationFields = ["organization_name", "organizationname", "organization"]
  /// Field names that hold a one-time code on MFA pages.
  static let codeFields = ["code", "otp", "otp_code", "totp", "verification_code"]

  /// The kind of a fetched page: the forms the profile describes first (`login_pages`, the
  /// field names of `forms`), then the built-in heuristics.
  ///
  /// A function of the document and the profile only, so every driver (the HTML one, a real
  /// browser's rendered DOM) classifies alike.
  static func classify(_ document: HTMLDocument, profile: LoginPageProfile = LoginPageProfile()) -> PageKind {
    for (position, form) in document.forms.enumerated() {
      if let kind = profiled(form, at: position, profile: profile) { return kind }
    }
    for form in document.forms {
      if let kind = classify(form, identifiers: profile.identifierFields) { return kind }
    }
    if !document.errorMessages.isEmpty || document.element(id: "error-code") != nil { return .error }
    if document.errorHeading != nil { return .error }
    let title = (document.title ?? "").lowercased()
    if title.contains("error") { return .error }
    return .unknown
  }

  /// A page as every driver sees it: its kind and, when the profile's app login applies to it
  /// (`login_pages.app`), that login — the page is then a `login` page. A function of the document
  /// and the profile only, for the HTML driver, `doctor`, and a real browser's rendered DOM alike.
  static func recognize(
    _ document: HTMLDocument, profile: LoginPageProfile
  ) -> (kind: PageKind, app: LoginPageProfile.AppLogin?) {
    let kind = classify(document, profile: profile)
    if let app = profile.app, app.matches(document, kind: kind) { return (.login, app) }
    return (kind, nil)
  }

  /// The kind the profile gives a form, if it describes it.
  private static func profiled(_ form: HTMLForm, at position: Int, profile: LoginPageProfile) -> PageKind? {
    for kind in [PageKind.login, .consent] {
      if let description = profile.description(of: kind), description.matches(form, at: position) { return kind }
    }
    return nil
  }

  /// The kind a form gives its page, or nil when the form says nothing (a language picker, …).
  /// `identifiers` are field names the profile gives the identifier, beside the built-in ones.
  static func classify(_ form: HTMLForm, identifiers: Set<String> = []) -> PageKind? {
    let marker = [form.id ?? "", form.name ?? "", URLComponents(string: form.action)?.path ?? form.action].joined(
      separator: " "
    ).lowercased()
    let names = Set(form.fields.map { $0.name.lowercased() })
    let hasPassword = form.hasField(ofType: "password")
    let profiled = !identifiers.isDisjoint(with: form.fields.map(\.name))
    if marker.contains("consent") || names.contains("scope") && names.contains("audience") { return .consent }
    if marker.contains("passwordless") || marker.contains("email-challenge") || marker.contains("sms-challenge") {
      return names.isDisjoint(with: codeFields) ? .passwordless : .passwordlessCode
    }
    if !profiled, marker.contains("mfa") || !hasPassword && !names.isDisjoint(with: codeFields) { return .mfa }
    if !profiled, marker.contains("organization") || !hasPassword && !names.isDisjoint(with: organizationFields) {
      return .organization
    }
    if marker.contains("signup") || marker.contains("sign-up") || marker.contains("register") { return .signup }
    let hasIdentifier = profiled || !names.isDisjoint(with: identifierFields)
    if hasPassword || hasIdentifier || marker.contains("login") || marker.contains("identifier") { return .login }
    return nil
  }

  /// The form of this kind on the page: the one the profile describes, else the first the
  /// heuristics give that kind.
  static func form(
    of kind: PageKind, in document: HTMLDocument, profile: LoginPageProfile = LoginPageProfile()
  ) -> HTMLForm? {
    if let description = profile.description(of: kind),
      let form = document.forms.enumerated().first(where: { description.matches($0.element, at: $0.offset) })
    {
      return form.element
    }
    return document.forms.first { classify($0, identifiers: profile.identifierFields) == kind }
  }
}
