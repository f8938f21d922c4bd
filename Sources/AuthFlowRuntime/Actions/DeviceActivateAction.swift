public import AuthFlowCore
public import AuthFlowScenario

/// `device_activate` — the user's side of the device flow: the `/activate` pages in a browser.
public struct DeviceActivateAction: Action {
  public static let signature = ActionSignature(
    name: "device_activate",
    summary: "Enter a device's user code at /activate, confirm (or decline) and log in, in a browser.",
    parameters: [
      ParameterSignature("user_code", .string, required: true, summary: "The code the device shows."),
      ParameterSignature("login", .map, summary: "Login form values (`email`, `password`) when there is no session."),
      ParameterSignature("decision", .oneOf(["confirm", "deny"]), summary: "Default `confirm`."),
      ParameterSignature(
        "browser", .string, summary: "The named browser (cookie jar); its SSO session skips the login page."),
      ParameterSignature(
        "verification_uri", .string, summary: "Where to start (default: the tenant's `activate` page)."),
    ],
    results: [
      ResultField("outcome", "`approved` or `denied`."), ResultField("pages", "The kinds of the pages visited."),
      ResultField("page", "The last page: `page.kind`, `page.url`, `page.fields`, `page.error`."),
    ])

  public static let documentation = """
    Opens the verification page (`verification_uri`, default `<base>activate`) in the named
    browser, enters `user_code`, then presses Confirm (or Cancel with `decision: deny`) on the
    confirmation page. Confirming logs in through the Universal Login pages with `login` values
    unless the browser has an SSO session. The result: `outcome` (`approved` or `denied`),
    `pages` (visited, e.g. `[device_activation, device_confirmation, login, device_approved]`)
    and `page` (the last one). A page that answers with an error (an unknown or expired user
    code, a wrong password) is `error` with `code` `page_error` (or the error page's code) and the
    page's message. Poll for the tokens with `device_token`.
    """

  public static let example = """
    scenario: A TV gets tokens once Alice confirms its code
    requires: [device_flow]
    client: native
    steps:
      - id: code
        device_authorization: { scope: openid profile email offline_access }
      - id: activate
        device_activate:
          user_code: ${{ steps.code.user_code }}
          login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        expect:
          outcome: approved
          pages: [device_activation, device_confirmation, login, device_approved]
      - id: tokens
        device_token: { device_code: "${{ steps.code.device_code }}" }
        expect:
          id_token.claims.email: alice@example.com
          refresh_token: { exists: true }
    """

  public static let traits = ActionTraits(
    capabilities: ["device_flow"], errors: [.pageError], failures: ActionTraits.browserFlow)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    guard let userCode = try input.string("user_code") else { throw .invalidParameter("user_code", "is required") }
    var login: [String: String]?
    if input["login"] != nil {
      login = Dictionary(try input.stringMap("login"), uniquingKeysWith: { first, _ in first })
    }
    let url: String
    if let given = try input.string("verification_uri") {
      url = given
    } else {
      url = try AuthenticationAPI(context).url("activate")
    }
    let browserName = try input.string("browser")
    let decision = try input.string("decision") ?? "confirm"
    var driver = DeviceActivationDriver(
      browser: await context.browser(named: browserName),
      mapping: FormFieldMapping(profile: context.tenant.loginPageProfile),
      userCode: userCode, decision: decision, login: login)
    driver.profile = context.tenant.loginPageProfile
    let ending = try await driver.run(from: url)
    var result: [String: Value] = ["pages": .array(driver.pages.map(Value.string))]
    switch ending {
    case .outcome(let outcome, let page):
      result["outcome"] = .string(outcome)
      result["page"] = page.value
      return .success(.object(result))
    case .failure(let code, let description, let page):
      result["page"] = page.value
      return .protocolError(
        ProtocolError(code: code, description: description, status: page.status), result: .object(result))
    }
  }
}
