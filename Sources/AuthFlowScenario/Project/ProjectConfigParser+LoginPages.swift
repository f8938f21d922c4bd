import AuthFlowCore
import AuthFlowYAML

extension ParseContext {
  /// `login_pages:` of a tenant: every problem located, with "did you mean" for keys.
  mutating func loginPages(_ node: YAMLNode) -> LoginPagesProfile? {
    guard let pairs = mapping(node, for: "login_pages") else { return nil }
    let keys = knownPairs(pairs, allowed: LoginPagesProfile.keys, in: "login_pages")
    var profile = LoginPagesProfile(location: node.location)
    profile.login = keys["login"].flatMap { loginPageForm($0.value, for: "login_pages.login") }
    profile.consent = keys["consent"].flatMap { loginPageForm($0.value, for: "login_pages.consent") }
    profile.app = keys["app"].flatMap { loginApp($0.value) }
    return profile
  }

  private mutating func loginPageForm(_ node: YAMLNode, for key: String) -> LoginPagesProfile.Form? {
    guard let pairs = mapping(node, for: key) else { return nil }
    let keys = knownPairs(pairs, allowed: LoginPagesProfile.formKeys, in: key)
    var form = LoginPagesProfile.Form(location: node.location)
    if let selector = keys["form"].flatMap({ string($0.value, for: "\(key).form") }) {
      if LoginPagesProfile.isFormSelector(selector.value) {
        form.form = selector
      } else {
        report(.invalidFormSelector(selector))
      }
    }
    if let fields = keys["fields"], let fieldPairs = mapping(fields.value, for: "\(key).fields") {
      for (name, pair) in keyedPairs(fieldPairs) {
        guard pair.value.scalar != nil, !pair.value.isNull else {
          report(.wrongType(expected: "a field name", found: pair.value, for: "\(key).fields.\(name.value)"))
          continue
        }
        form.fields.append(Binding(name: name, value: template(pair.value)))
      }
    }
    form.submit = keys["submit"].map { template($0.value) }
    return form
  }

  private mutating func loginApp(_ node: YAMLNode) -> LoginPagesProfile.App? {
    guard let pairs = mapping(node, for: "login_pages.app") else { return nil }
    let keys = knownPairs(pairs, allowed: LoginPagesProfile.appKeys, in: "login_pages.app")
    var app = LoginPagesProfile.App(location: node.location)
    app.page = keys["page"].map { template($0.value) }
    if let requests = keys["requests"] {
      if case .sequence(let items, _) = requests.value {
        app.requests = items.compactMap { loginAppRequest($0) }
        if !InputLimits.appLoginRequests.contains(items.count) {
          report(.appLoginRequestCount(items.count, at: requests.value.location))
        }
      } else {
        report(.wrongType(expected: "a list of requests", found: requests.value, for: "login_pages.app.requests"))
      }
    } else {
      report(.missingAppLoginKey("requests", at: node.location))
    }
    if let continuation = keys["continue"],
      let continuePairs = mapping(continuation.value, for: "login_pages.app.continue")
    {
      let known = knownPairs(continuePairs, allowed: LoginPagesProfile.continueKeys, in: "login_pages.app.continue")
      app.continueParameters = known["parameters"].map { template($0.value) }
      app.continueURL = known["url"].map { template($0.value) }
      if (app.continueParameters == nil) == (app.continueURL == nil) {
        report(.appLoginContinue(at: continuation.value.location))
      }
    } else if keys["continue"] == nil {
      report(.missingAppLoginKey("continue", at: node.location))
    }
    return app
  }

  private mutating func loginAppRequest(_ node: YAMLNode) -> LoginPagesProfile.AppRequest? {
    let key = "a request of login_pages.app"
    guard let pairs = mapping(node, for: key) else { return nil }
    let keys = knownPairs(pairs, allowed: LoginPagesProfile.requestKeys, in: key)
    guard let urlPair = keys["url"] else {
      report(.missingAppLoginKey("url", at: node.location))
      return nil
    }
    var method = Located("POST", at: node.location)
    if let given = keys["method"].flatMap({ string($0.value, for: "method") }) {
      guard LoginPagesProfile.methods.contains(given.value.uppercased()) else {
        report(.unknownAppLoginMethod(given))
        return nil
      }
      method = Located(given.value.uppercased(), at: given.location)
    }
    var request = LoginPagesProfile.AppRequest(method: method, url: template(urlPair.value), location: node.location)
    if keys["json"] != nil, keys["form"] != nil {
      report(.appLoginTwoBodies(at: node.location))
    }
    if let json = keys["json"] {
      request.encoding = .json
      request.body = template(json.value)
    } else if let form = keys["form"] {
      guard case .mapping = form.value else {
        report(.wrongType(expected: "a mapping of form fields", found: form.value, for: "form"))
        return nil
      }
      request.encoding = .form
      request.body = template(form.value)
    }
    return request
  }
}

// Messages about `login_pages:`.
extension Diagnostic {
  static func invalidFormSelector(_ selector: Located<String>) -> Diagnostic {
    .error(
      "'\(selector.value)' is not a form selector authflow understands", at: selector.location,
      length: max(1, selector.value.count), hint: "use '#ID' (the form's id) or '[action*=TEXT]' (text in its action)")
  }

  static func missingAppLoginKey(_ key: String, at location: SourceLocation) -> Diagnostic {
    let example =
      switch key {
      case "requests": "requests: [{ method: POST, url: /api/auth/, json: { … } }]"
      case "continue": "continue: { parameters: { … } } (repeat the authorization request) or continue: { url: … }"
      default: "url: /api/login"
      }
    return .error("login_pages.app needs '\(key)'", at: location, hint: "add '\(example)'")
  }

  static func appLoginRequestCount(_ count: Int, at location: SourceLocation) -> Diagnostic {
    let range = InputLimits.appLoginRequests
    return .error(
      "login_pages.app has \(Plural.count(count, "request")); it takes \(range.lowerBound) to \(range.upperBound)",
      at: location,
      hint: "list the requests the login page's script sends, in order")
  }

  static func appLoginContinue(at location: SourceLocation) -> Diagnostic {
    .error(
      "login_pages.app.continue takes exactly one of 'parameters' and 'url'", at: location,
      hint:
        "'parameters' repeats the authorization request with them added; 'url' goes to a URL (e.g. from the response)")
  }

  static func unknownAppLoginMethod(_ method: Located<String>) -> Diagnostic {
    .error(
      "unknown method '\(method.value)' for a login request", at: method.location, length: max(1, method.value.count),
      hint: Suggestion.hint(for: method.value.uppercased(), in: LoginPagesProfile.methods)
        ?? "use one of \(LoginPagesProfile.methods.joined(separator: ", "))")
  }

  static func appLoginTwoBodies(at location: SourceLocation) -> Diagnostic {
    .error(
      "a login request has both 'json' and 'form'", at: location,
      hint: "keep the one the login page's script sends (its Content-Type)")
  }
}
