import AuthFlowCore
import AuthFlowHTTP

/// Which form field a logical value (`email`, `password`, …) goes into. Per-tenant overrides
/// come from `tenant.settings.forms` (e.g. `{email: username}` for a provider whose pages name
/// the field differently); without one, `email` also fills `username`/`identifier`/`login`.
struct FormFieldMapping: Sendable {
  var overrides: [String: String]

  static let aliases: [String: [String]] = [
    "email": ["email", "username", "identifier", "login"],
    "username": ["username", "email", "identifier", "login"],
    "organization_name": ["organization_name", "organizationName", "organization"],
  ]

  /// The values a step's `login` gives that the driver knows by itself: the identifier (by
  /// ``aliases``) and the password. A tenant's `forms` and `login_pages` name more.
  static let loginValues = ["email", "password", "phone_number", "username"]
  /// The values of a signup page: the login values and the profile fields a signup page may ask.
  static let signupValues = loginValues + ["family_name", "given_name", "name", "nickname"]
  /// The values of the passwordless pages: the address, and the code.
  static let passwordlessValues = ["code", "email", "phone_number", "username"]

  /// Field names by page kind (`login_pages.login.fields`), before `overrides`.
  var pageFields: [PageKind: [String: String]] = [:]

  init(settings: [String: Value]) {
    var overrides: [String: String] = [:]
    for (key, value) in settings["forms"]?.objectValue ?? [:] {
      if let name = value.stringValue { overrides[key] = name }
    }
    self.overrides = overrides
  }

  /// The mapping of a tenant's login-page profile: `forms`, then each page's `fields`.
  init(profile: LoginPageProfile) {
    overrides = profile.fieldNames
    for kind in [PageKind.login, .consent] {
      if let fields = profile.description(of: kind)?.fields, !fields.isEmpty { pageFields[kind] = fields }
    }
  }

  /// The values the form can take, by field name; values whose field is not on this page (the
  /// password on an identifier-first page) are left for the next one.
  func fieldValues(_ values: [String: String], for form: HTMLForm, kind: PageKind? = nil) -> [String: String] {
    let names = Set(form.fields.filter { !$0.isSubmitButton }.map(\.name))
    let page = kind.flatMap { pageFields[$0] } ?? [:]
    var filled: [String: String] = [:]
    for key in values.keys.sorted() {
      guard let value = values[key] else { continue }
      let candidates = (page[key] ?? overrides[key]).map { [$0] } ?? Self.aliases[key] ?? [key]
      if let name = candidates.first(where: names.contains) { filled[name] = value }
    }
    return filled
  }
}
