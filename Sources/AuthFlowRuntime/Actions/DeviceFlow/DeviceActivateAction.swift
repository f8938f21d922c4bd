public import AuthFlowCore
public import AuthFlowScenario

/// `device_activate` — the user's side of the device flow: the `/activate` pages in a browser.
public struct DeviceActivateAction: Action {
  static let userCode = Parameter<String>("user_code", required: true, summary: "The code the device shows.")
  static let login = Parameter<[String: Value]>(
    "login", summary: "Login form values (`email`, `password`) when there is no session.",
    formValues: FormFieldMapping.loginValues)
  static let decision = Parameter<String>("decision", .oneOf(["confirm", "deny"]), summary: "Default `confirm`.")
  static let browser = Parameter<String>(
    "browser", summary: "The named browser (cookie jar); its SSO session skips the login page.")
  static let verificationURI = Parameter<String>(
    "verification_uri", summary: "Where to start (default: the tenant's `activate` page).")

  public static let signature = ActionSignature(
    name: "device_activate",
    summary: "Enter a device's user code at /activate, confirm (or decline) and log in, in a browser.",
    declaring: [Self.userCode, Self.login, Self.decision, Self.browser, Self.verificationURI],
    results: .closed([
      ResultField("outcome", "`approved` or `denied`."), ResultField("pages", "The kinds of the pages visited."),
      ResultField("page", "The last page: `page.kind`, `page.url`, `page.fields`, `page.error`."),
    ]))

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

  public static let failingExample = FailingExample(
    .protocolError, code: .pageError,
    scenario: """
      scenario: An unknown user code is refused on the activation page
      requires: [device_flow]
      client: native
      steps:
        - id: fails
          device_activate:
            user_code: ZZZZ-ZZZZ
            login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["device_flow"], errors: [.pageError], failures: ActionTraits.browserFlow)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    guard let userCode = try input[Self.userCode] else { throw .invalidParameter(Self.userCode, "is required") }
    var login: [String: String]?
    if input.contains(Self.login) {
      login = Dictionary(try input.stringMap(Self.login), uniquingKeysWith: { first, _ in first })
    }
    let url: String
    if let given = try input[Self.verificationURI] {
      url = given
    } else {
      url = try AuthenticationAPI(context).url("activate")
    }
    let browserName = try input[Self.browser]
    let decision = try input[Self.decision] ?? "confirm"
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
