public import AuthFlowCore
import AuthFlowYAML

extension ProjectConfig {
  /// The keys of a step's login-form values (`web_auth: { login: { … } }`, a parameter with
  /// ``ParameterSignature/formValues``) that no login page would take: neither a name the driver
  /// fills by itself nor one the tenants the scenario may run on name in `forms` or `login_pages`.
  /// Such a key fills nothing, and the run would fail on the page asking again ("Please enter
  /// your email and password") — a typo found before anything runs instead (`pass:`).
  public func checkLoginValues(_ scenario: Scenario, catalog: ActionCatalog) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var tenantNames: Set<String>?
    for step in scenario.steps + scenario.cleanup {
      guard let signature = catalog[step.action.name.value], let members = step.action.parameters.members else {
        continue
      }
      for member in members {
        guard let parameter = signature.parameter(member.key.value), let standard = parameter.formValues,
          let given = member.value.members
        else { continue }
        for key in given.map(\.key) where !standard.contains(key.value) {
          let named = tenantNames ?? loginValueNames(forScenarioPinnedTo: scenario.tenant?.value)
          tenantNames = named
          guard !named.contains(key.value) else { continue }
          let known = Set(standard).union(named).sorted()
          diagnostics.append(
            .unknownLoginValue(
              key, parameter: "\(signature.name).\(parameter.name)", known: known,
              hint: Self.loginValueHint(for: key.value, in: known)))
        }
      }
    }
    return diagnostics
  }

  /// "Did you mean": a near name (edit distance), else the name the key abbreviates or extends
  /// (`pass` → `password`, `pin_code` → `pin`), else the name a common short form stands for.
  static func loginValueHint(for key: String, in known: [String]) -> String? {
    if let hint = Suggestion.hint(for: key, in: known) { return hint }
    let lowered = key.lowercased()
    let related = known.first { name in
      lowered.count >= 3 && (name.hasPrefix(lowered) || lowered.hasPrefix(name) && name.count >= 3)
    }
    let alias = Self.loginValueAliases[lowered].flatMap { known.contains($0) ? $0 : nil }
    return (related ?? alias).map { "did you mean '\($0)'?" }
  }

  /// Short forms people write for the standard login values.
  static let loginValueAliases = [
    "pw": "password", "pwd": "password", "passwd": "password", "secret": "password", "mail": "email",
    "e-mail": "email", "user": "username", "login": "username", "identifier": "username", "phone": "phone_number",
    "otp": "code",
  ]

  /// The login values the tenants a scenario may run on name (the pinned one, else every one).
  private func loginValueNames(forScenarioPinnedTo pinned: String?) -> Set<String> {
    let candidates = pinned.flatMap { tenant(named: $0) }.map { [$0] } ?? tenants
    return candidates.reduce(into: Set<String>()) { $0.formUnion($1.loginValueNames) }
  }
}

extension TenantProfile {
  /// The login values this tenant's profile names: the keys of `forms`, of `login_pages.login` and
  /// `login_pages.consent` fields, and the `login.NAME` its app login's templates read.
  public var loginValueNames: Set<String> {
    var names = Set(forms.map(\.name.value))
    for form in [loginPages?.login, loginPages?.consent].compactMap({ $0 }) {
      names.formUnion(form.fields.map(\.name.value))
    }
    if let app = loginPages?.app {
      let templates =
        app.requests.flatMap { [$0.url] + ($0.body.map { [$0] } ?? []) }
        + [app.continueParameters, app.continueURL].compactMap { $0 }
      for reference in templates.flatMap(\.references) where reference.root == "login" {
        if let name = reference.path.first { names.insert(name) }
      }
    }
    return names
  }
}

extension Diagnostic {
  static func unknownLoginValue(_ key: Located<String>, parameter: String, known: [String], hint: String?) -> Diagnostic
  {
    .error(
      "\(parameter) has no value '\(key.value)': a login page takes \(known.joined(separator: ", "))",
      at: key.location, length: key.value.count,
      hint: hint
        ?? "a key a login page does not take fills nothing; name the page's field in the tenant's `forms:` "
        + "(`forms: { \(key.value): FIELD }`) or `login_pages.login.fields` in authflow.yaml")
  }
}
