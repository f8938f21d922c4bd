import AuthFlowCore
import AuthFlowHTTP
import AuthFlowScenario

extension LoginPageProfile {
  /// The profile of a tenant: `forms:` (evaluated) and `login_pages:`, whose form descriptions
  /// and app page are evaluated now (`env` only) and whose app requests are kept as templates
  /// for the step that signs in.
  static func resolve(
    _ pages: LoginPagesProfile?, forms: [String: Value], environment: [String: String],
    evaluate: (Template?) throws(TenantResolutionError) -> Value?
  ) throws(TenantResolutionError) -> LoginPageProfile {
    var profile = LoginPageProfile()
    for (key, value) in forms {
      if let name = value.stringValue { profile.fieldNames[key] = name }
    }
    guard let pages else { return profile }
    func form(_ described: LoginPagesProfile.Form?) throws(TenantResolutionError) -> FormDescription? {
      guard let described else { return nil }
      var description = FormDescription()
      description.selector = described.form.flatMap { HTMLFormSelector(profileSelector: $0.value) }
      for binding in described.fields {
        if let name = try evaluate(binding.value)?.stringValue { description.fields[binding.name.value] = name }
      }
      description.submit = try evaluate(described.submit)?.stringValue
      return description
    }
    profile.login = try form(pages.login)
    profile.consent = try form(pages.consent)
    if let app = pages.app {
      profile.app = AppLogin(
        page: try evaluate(app.page)?.stringValue, requests: app.requests, continueParameters: app.continueParameters,
        continueURL: app.continueURL, environment: environment)
    }
    return profile
  }
}

extension HTMLFormSelector {
  /// A `login_pages` form selector: `#id` or `[action*=TEXT]`, optionally after `form`.
  init?(profileSelector text: String) {
    var rest = Substring(text)
    if rest.hasPrefix("form") { rest = rest.dropFirst(4) }
    if rest.hasPrefix("#"), rest.count > 1 {
      self = .id(String(rest.dropFirst()))
    } else if rest.hasPrefix("[action*="), rest.hasSuffix("]") {
      let inner = rest.dropFirst("[action*=".count).dropLast()
      let value = inner.trimmingCharacters(in: .init(charactersIn: "\"'"))
      guard !value.isEmpty else { return nil }
      self = .actionContaining(value)
    } else {
      return nil
    }
  }
}

extension TenantContext {
  /// The login-page profile the drivers use: `loginPages`, with `settings.forms` as the field
  /// names when the profile has none (a context built without the resolver).
  var loginPageProfile: LoginPageProfile {
    var profile = loginPages
    if profile.fieldNames.isEmpty { profile.fieldNames = FormFieldMapping(settings: settings).overrides }
    return profile
  }
}
