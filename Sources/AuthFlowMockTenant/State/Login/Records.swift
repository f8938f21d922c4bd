import AuthFlowJOSE

/// What `/authorize` asked for, bound to the Universal Login pages by the transaction id (`state`
/// of the login form).
struct AuthorizeRequest: Sendable {
  var clientID: String
  var redirectURI: String
  var responseType: String
  var responseMode: String?
  var state: String?
  var nonce: String?
  var scope: [String]
  var audience: String?
  var codeChallenge: String?
  var codeChallengeMethod: PKCE.Method?
  var organization: OrganizationConfig?
  var maxAge: Int?
  var connection: String?
  var loginHint: String?
  /// The invitation being accepted (`/authorize?invitation=…&organization=…`).
  var invitation: Invitation?
  /// The user picks one of their organizations after logging in (`post_login_prompt`).
  var organizationSelection = false
  /// The user code being confirmed when the login is the one of `/activate` (device flow): the
  /// login ends on the device page instead of a redirect.
  var deviceUserCode: String? = nil
}

/// A Universal Login transaction: the request plus the CSRF token its forms must carry.
struct LoginTransaction: Sendable {
  var id: String
  var request: AuthorizeRequest
  var csrf: String
  /// The user who passed the password step and must now enter an MFA code.
  var pendingMFAUserID: String? = nil
  /// Wrong MFA codes so far in this transaction.
  var mfaFailures = 0
  /// The page after the organization prompt: `login` or `signup`.
  var screen = "login"
  /// Whether a valid SSO session may end the transaction after the organization prompt
  /// (false with `prompt=login` or an invalid session transfer token).
  var sessionAllowed = false
  /// The email or phone number a passwordless code was sent to (the code page of
  /// `/authorize?connection=email|sms`).
  var passwordlessAddress: String? = nil
  /// The user who logged in and must now pick an organization (`post_login_prompt`), and when.
  var pendingOrganizationUserID: String? = nil
  var pendingAuthTime: Double = 0
  /// The value of the transaction cookie that binds it to the browser that began it
  /// (``TransactionBinding``).
  var binding = RandomToken.make(bytes: 24)
}

/// An issued authorization code and everything it is bound to.
struct IssuedCode: Sendable {
  var request: AuthorizeRequest
  var userID: String
  var authTime: Double
}

/// An SSO session (the `auth0` cookie).
struct SSOSession: Sendable {
  var userID: String
  var authTime: Double
}

/// What a grant established: the basis for the tokens of a response and for refresh tokens.
struct Grant: Sendable {
  var clientID: String
  var userID: String?
  var scope: [String]
  var audience: String?
  var nonce: String?
  var organization: OrganizationConfig?
  var authTime: Double?
  var includeAuthTime: Bool
}

/// An `/activate` transaction: its CSRF token, the user code once entered, wrong codes so far.
struct DeviceActivation: Sendable {
  var id: String
  var csrf: String
  var userCode: String?
  var failures = 0
}

/// A session transfer token (docs/protocol.md §3.2): single use, 60 s, for the user of the refresh token.
struct SessionTransfer: Sendable {
  var userID: String
  var clientID: String
}
