import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

@Suite struct ActionParameterTests {
  @Test func unknownParameterWithSuggestion() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - web_auth: { 1️⃣scop: openid }
      """)
    expectDiagnostic(
      diagnostics(input), at: input["1️⃣"], "unknown parameter 'scop' for action 'web_auth'",
      hint: "did you mean 'scope'?")
  }

  @Test func missingRequiredParameterAtTheActionKey() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - 1️⃣renew: { scope: openid }
        - 2️⃣renew:
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"], "action 'renew' is missing the required parameter 'refresh_token'",
      hint: "add 'refresh_token:' (the refresh token to use)")
    expectDiagnostic(found, at: input["2️⃣"], "action 'renew' is missing the required parameter 'refresh_token'")
  }

  @Test func literalTypeMismatches() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - web_auth:
            max_age: 1️⃣soon
            parameters: 2️⃣[a]
            login: { email: 3️⃣[x], 4️⃣pasword: y }
            stop_at: 5️⃣logn
            prompts: [ok, 6️⃣{a: b}]
        - http: { url: "https://example.com", follow_redirects: 7️⃣maybe }
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"], "parameter 'max_age' of action 'web_auth' must be an integer, found a string")
    expectDiagnostic(
      found, at: input["2️⃣"], "parameter 'parameters' of action 'web_auth' must be a mapping, found a list")
    expectDiagnostic(
      found, at: input["3️⃣"], "parameter 'login.email' of action 'web_auth' must be a string, found a list")
    expectDiagnostic(found, at: input["4️⃣"], "unknown parameter 'login.pasword'", hint: "did you mean 'password'?")
    expectDiagnostic(
      found, at: input["5️⃣"], "'logn' is not a valid value for parameter 'stop_at'", hint: "did you mean 'login'?")
    expectDiagnostic(found, at: input["6️⃣"], "parameter 'prompts[1]' of action 'web_auth' must be a string")
    expectDiagnostic(found, at: input["7️⃣"], "must be true or false, found a string")
    #expect(found.count == 7)
  }

  @Test func scalarFormsAndOpenActions() {
    let input = MarkedText(
      """
      scenario: x
      steps:
        - wait: 2s
        - assert: true
        - set: { anything: 1, goes: 2 }
        - http: 1️⃣https://example.com
      """)
    let found = diagnostics(input)
    expectDiagnostic(
      found, at: input["1️⃣"], "action 'http' takes a mapping of parameters, found a string",
      hint: "write its parameters as 'http: { name: value }'")
    #expect(found.count == 1)
  }

  @Test func catalogIsSortedAndLooksUpByName() {
    let catalog = ActionCatalog([
      ActionSignature(name: "wait"), ActionSignature(name: "http"), ActionSignature(name: "wait", summary: "second"),
    ])
    #expect(catalog.names == ["http", "wait"])
    #expect(catalog["wait"]?.summary == "")
    #expect(catalog["nope"] == nil)
  }
}
