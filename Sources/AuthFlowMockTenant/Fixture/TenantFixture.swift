public import AuthFlowCore
public import AuthFlowJOSE

/// Everything a mock tenant is made of, read from `tenants/*.yaml` (see `FixtureLoader`).
public struct TenantFixture: Sendable {
  public var settings: TenantSettings
  /// Clients by profile name (`native`, `web`, `m2m`).
  public var clients: [String: ClientConfig]
  public var apis: [APIConfig]
  public var connections: [ConnectionConfig]
  /// Users by profile name (`alice`, `bob`).
  public var users: [String: UserRecord]
  public var organizations: [OrganizationConfig]
  public var claimRules: [ClaimRule]
  /// An RSA private key (PEM) to sign with; nil generates one at start.
  public var signingKeyPEM: String?
  public var signingKeyID: String?

  public init(
    settings: TenantSettings = TenantSettings(), clients: [String: ClientConfig] = [:], apis: [APIConfig] = [],
    connections: [ConnectionConfig] = [], users: [String: UserRecord] = [:], organizations: [OrganizationConfig] = [],
    claimRules: [ClaimRule] = [], signingKeyPEM: String? = nil, signingKeyID: String? = nil
  ) {
    self.settings = settings
    self.clients = clients
    self.apis = apis
    self.connections = connections
    self.users = users
    self.organizations = organizations
    self.claimRules = claimRules
    self.signingKeyPEM = signingKeyPEM
    self.signingKeyID = signingKeyID
  }

  /// The client with this `client_id`.
  public func client(id: String) -> ClientConfig? { clients.values.first { $0.clientID == id } }
  /// The connection with this name.
  public func connection(named name: String) -> ConnectionConfig? { connections.first { $0.name == name } }
}

/// Tenant-wide settings.
public struct TenantSettings: Sendable {
  /// A fixed issuer; nil means the server's base URL with a trailing slash.
  public var issuer: String?
  public var refreshTokenRotation = true
  /// Overlap window in seconds during which the immediately previous refresh token may be reused.
  public var refreshTokenReuseLeeway = 0
  /// Absolute refresh-token lifetime, seconds (rotation does not extend it).
  public var refreshTokenLifetime = 2_592_000
  public var idTokenLifetime = 36_000
  public var accessTokenLifetime = 86_400
  public var authorizationCodeLifetime = 60
  public var sessionLifetime = 259_200
  /// Legacy pipeline: attribute names (`name`, `picture`, …) are scopes that add claims.
  public var legacyScopeClaims = false
  /// "Allow Organization Names in Authentication API".
  public var organizationNamesInAuthAPI = false
  /// Bot Detection: a direct login or signup whose identifier contains `+suspicious` answers
  /// `requires_verification`, and Universal Login shows a challenge (see `BotDetection`).
  public var botDetection = false
  /// The database password policy (`PasswordStrengthError` rules).
  public var passwordPolicy: PasswordPolicy = .fair
  /// Password Dictionary: a password that is a common one (or in `passwordDictionaryWords`) is
  /// rejected with `password_dictionary_error` (see `PasswordRules`).
  public var passwordDictionary = false
  /// Extra words for the Password Dictionary (compared case-insensitively with the whole password).
  public var passwordDictionaryWords: [String] = []
  /// Personal Data ("Disallow Personal Data"): a password containing the user's name, username,
  /// nickname or the local part of the email is rejected with `password_no_user_info_error`.
  public var passwordNoPersonalInfo = false
  /// Password History: how many of the user's passwords (the current one included) a new password
  /// may not repeat (`PasswordHistoryError`); 0 is off. Auth0 allows up to 24.
  public var passwordHistorySize = 0
  /// Signup answers `invalid_signup` instead of `user_exists` (user enumeration protection).
  public var signupEnumerationProtection = false
  /// Consecutive failures for one user and IP before `too_many_attempts`.
  public var bruteForceLimit = 10
  /// Requests per window (a minute unless `rateLimitWindow` says otherwise) per IP and endpoint;
  /// nil is the mock's default, 1,000 (`RateLimitMiddleware`).
  public var rateLimitPerMinute: Int?
  /// The rate limit's window in seconds (`rate_limit_window`): 60 as on Auth0; shorter for tests
  /// and `authflow bench`'s pacing rows, which would otherwise wait a minute per window.
  public var rateLimitWindow = 60
  /// The range `rate_limit_window` accepts.
  public static let rateLimitWindowRange = 1...3600
  /// Tenant-level Allowed Logout URLs (used when `/v2/logout` has no `client_id`).
  public var allowedLogoutURLs: [String] = []
  /// OIDC Dynamic Application Registration (Auth0's `enable_dynamic_client_registration`):
  /// `/oidc/register` creates clients. Off by default, as on Auth0.
  public var dynamicClientRegistration = false
  /// What `/authorize` shows for a login (opt-in shapes of other providers, for tests of profile-driven
  /// logins); Universal Login by default, as on Auth0.
  public var loginPage: LoginPageStyle = .universalLogin
  /// The algorithm ID tokens are signed with (`id_token_signing_alg`): RS256 as on Auth0; any of
  /// ``AuthFlowJOSE/JWSAlgorithm/signing``, to play a provider that signs otherwise. With an
  /// asymmetric one the tenant's key is of that kind (and signs JWT access tokens too); with
  /// HS256/384/512 an ID token is keyed with its client's secret (OIDC Core §10.1).
  public var idTokenSigningAlgorithm: JWSAlgorithm = .rs256
  /// Whether ID tokens name their key in the header (`id_token_kid`): true as on Auth0; false
  /// plays a provider with one key that leaves `kid` out (OIDC Core §10.1 allows it).
  public var idTokenKeyID = true
  /// How `updated_at` is written in ID tokens and `/userinfo` (`updated_at_format`): an ISO 8601
  /// string, as Auth0 sends it (docs/protocol.md §4.6); `epoch`, the number of seconds OIDC Core §5.1
  /// fixes, to play a provider that follows it.
  public var updatedAtFormat: UpdatedAtFormat = .iso8601

  public init() {}
}

/// How a mock tenant writes `updated_at` (`tenant.updated_at_format`).
public enum UpdatedAtFormat: String, Sendable, Hashable, CaseIterable {
  /// `2015-08-19T17:18:01.000Z`, as Auth0 sends it.
  case iso8601
  /// Seconds since 1970, as OIDC Core §5.1 fixes it.
  case epoch
}

/// The login page a mock tenant serves (`tenant.login_page` of the fixture).
public enum LoginPageStyle: Sendable, Hashable {
  /// Universal Login (`/u/login`), as Auth0 does.
  case universalLogin
  /// `/u/identify`: a form with one field, named as given (e.g. `sub`), that names the user; no
  /// password, as some test and developer providers sign in.
  case singleField(String)
  /// `/login.html`: a JavaScript app with no HTML form; it signs in with `POST /api/auth/`
  /// (JSON) and continues with `/authorize?…&continue=…`.
  case app

  /// The fixture's names for the styles.
  public static let names = ["universal_login", "single_field", "app"]
}

/// An application.
public struct ClientConfig: Sendable {
  public enum Kind: String, Sendable, CaseIterable {
    case native, spa, regular, m2m
  }

  public var profile: String
  public var clientID: String
  /// Present for confidential clients, which must then authenticate at `/oauth/token`.
  public var clientSecret: String?
  public var kind: Kind
  public var name: String
  public var callbacks: [String]
  public var allowedLogoutURLs: [String]
  public var grantTypes: [String]
  /// MRRT policies: `{audience, scope[]}`.
  public var refreshTokenPolicies: [RefreshTokenPolicy]
  /// Client-credentials grants: audience → scopes.
  public var apiGrants: [String: [String]]
  /// Overrides the tenant's `legacy_scope_claims` for this client (docs/protocol.md §10).
  public var legacyScopeClaims: Bool?
  /// Whether `/authorize` takes an `organization` (Auth0's `organization_usage`).
  public var organizationUsage: OrganizationUsage = .allow
  /// What `/authorize` does without an `organization` when it is required.
  public var organizationRequireBehavior: OrganizationRequireBehavior = .noPrompt
  /// The Application Login URI: the route invitation links open.
  public var initiateLoginURI: String?

  public var isConfidential: Bool { clientSecret != nil }

  public init(
    profile: String, clientID: String, clientSecret: String? = nil, kind: Kind, name: String? = nil,
    callbacks: [String] = [], allowedLogoutURLs: [String] = [], grantTypes: [String] = [],
    refreshTokenPolicies: [RefreshTokenPolicy] = [], apiGrants: [String: [String]] = [:]
  ) {
    self.profile = profile
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.kind = kind
    self.name = name ?? profile
    self.callbacks = callbacks
    self.allowedLogoutURLs = allowedLogoutURLs
    self.grantTypes = grantTypes
    self.refreshTokenPolicies = refreshTokenPolicies
    self.apiGrants = apiGrants
  }
}

/// Auth0's `organization_usage` of an application. The mock defaults to `allow` (Auth0's default
/// is `deny`), so fixtures without the key keep accepting `organization`.
public enum OrganizationUsage: String, Sendable, CaseIterable {
  case deny, allow, require
}

/// Auth0's `organization_require_behavior`: with `organization_usage: require` and no
/// `organization`, `no_prompt` answers an error, `pre_login_prompt` shows the organization
/// prompt page before the login page, and `post_login_prompt` lets the user pick one of their
/// organizations after logging in.
public enum OrganizationRequireBehavior: String, Sendable, CaseIterable {
  case noPrompt = "no_prompt"
  case preLoginPrompt = "pre_login_prompt"
  case postLoginPrompt = "post_login_prompt"
}

/// An MRRT policy entry of a client.
public struct RefreshTokenPolicy: Sendable, Hashable {
  public var audience: String
  public var scope: [String]

  public init(audience: String, scope: [String]) {
    self.audience = audience
    self.scope = scope
  }
}

/// A resource server.
public struct APIConfig: Sendable {
  /// `custom` APIs have a fixed identifier; the built-in ones take the server's base URL.
  public enum Kind: String, Sendable, CaseIterable {
    case custom
    case myAccount = "my_account"
    case management
  }

  public var kind: Kind
  /// The identifier (audience) for custom APIs; ignored for built-in ones.
  public var identifier: String
  public var name: String
  public var scopes: [String]
  public var allowOfflineAccess: Bool

  public init(
    kind: Kind = .custom, identifier: String, name: String? = nil, scopes: [String] = [],
    allowOfflineAccess: Bool = true
  ) {
    self.kind = kind
    self.identifier = identifier
    self.name = name ?? identifier
    self.scopes = scopes
    self.allowOfflineAccess = allowOfflineAccess
  }

  /// The audience as seen on the wire, given the issuer (`https://host/`).
  public func audience(issuer: String) -> String {
    switch kind {
    case .custom: return identifier
    case .myAccount: return issuer + "me/"
    case .management: return issuer + "api/v2/"
    }
  }
}

/// A connection.
public struct ConnectionConfig: Sendable {
  public enum Strategy: String, Sendable, CaseIterable {
    case database, email, sms, social
  }

  public var name: String
  public var strategy: Strategy
  /// Client profiles the connection is enabled for; empty means all.
  public var enabledClients: [String]
  /// Native social token exchange (`apple`, `facebook`): the subject tokens the simulated provider
  /// accepts.
  public var subjectTokens: [SubjectToken]
  /// A simulated web social provider (`github`): the accounts its consent page offers. A social
  /// connection with accounts sends `/authorize?connection=…` through that page.
  public var accounts: [SocialAccount]

  public init(
    name: String, strategy: Strategy, enabledClients: [String] = [], subjectTokens: [SubjectToken] = [],
    accounts: [SocialAccount] = []
  ) {
    self.name = name
    self.strategy = strategy
    self.enabledClients = enabledClients
    self.subjectTokens = subjectTokens
    self.accounts = accounts
  }
}

/// An account of a simulated web social provider (the user signs in to it on its consent page).
public struct SocialAccount: Sendable, Hashable {
  /// The provider's user id (`user_id` becomes `<connection>|<id>`).
  public var userID: String
  /// The provider login (GitHub username), shown on the page and used as `nickname`.
  public var login: String
  public var email: String?
  public var name: String?
  public var picture: String?

  public init(userID: String, login: String, email: String? = nil, name: String? = nil, picture: String? = nil) {
    self.userID = userID
    self.login = login
    self.email = email
    self.name = name
    self.picture = picture
  }
}

/// A subject token a simulated social provider accepts, and the provider user it stands for.
public struct SubjectToken: Sendable, Hashable {
  public var token: String
  /// The provider's user id (`user_id` becomes `<connection>|<id>`).
  public var userID: String
  public var email: String?
  public var name: String?

  public init(token: String, userID: String, email: String? = nil, name: String? = nil) {
    self.token = token
    self.userID = userID
    self.email = email
    self.name = name
  }
}

/// A user of the tenant.
public struct UserRecord: Sendable {
  public var profile: String
  /// `auth0|…`, `email|…`, `github|…`.
  public var userID: String
  public var connection: String
  public var email: String?
  public var emailVerified: Bool
  public var password: String?
  public var username: String?
  public var phoneNumber: String?
  /// Whether `phoneNumber` was verified: a code sent to it signed the user in (Auth0's
  /// `phone_verified`, the ID token's `phone_number_verified`).
  public var phoneVerified: Bool
  public var name: String?
  public var nickname: String?
  public var picture: String?
  public var givenName: String?
  public var familyName: String?
  public var userMetadata: [String: Value]
  public var appMetadata: [String: Value]
  public var blocked: Bool
  public var mfa: [MFAEnrollment]
  /// Seconds since 1970.
  public var updatedAt: Double

  public init(
    profile: String, userID: String, connection: String = "Username-Password-Authentication", email: String? = nil,
    emailVerified: Bool = true, password: String? = nil, username: String? = nil, phoneNumber: String? = nil,
    phoneVerified: Bool = false, name: String? = nil, nickname: String? = nil, picture: String? = nil,
    givenName: String? = nil,
    familyName: String? = nil, userMetadata: [String: Value] = [:], appMetadata: [String: Value] = [:],
    blocked: Bool = false, mfa: [MFAEnrollment] = [], updatedAt: Double = 1_700_000_000
  ) {
    self.profile = profile
    self.userID = userID
    self.connection = connection
    self.email = email
    self.emailVerified = emailVerified
    self.password = password
    self.username = username
    self.phoneNumber = phoneNumber
    self.phoneVerified = phoneVerified
    self.name = name
    self.nickname = nickname
    self.picture = picture
    self.givenName = givenName
    self.familyName = familyName
    self.userMetadata = userMetadata
    self.appMetadata = appMetadata
    self.blocked = blocked
    self.mfa = mfa
    self.updatedAt = updatedAt
  }
}

/// An MFA factor a user is enrolled in.
public struct MFAEnrollment: Sendable, Hashable {
  public enum Kind: String, Sendable, CaseIterable {
    case totp, sms, email
    case recoveryCode = "recovery_code"
  }

  public var kind: Kind
  /// Base32 TOTP secret, phone number, email or recovery code, by kind.
  public var secret: String

  public init(kind: Kind, secret: String) {
    self.kind = kind
    self.secret = secret
  }
}

/// An organization.
public struct OrganizationConfig: Sendable {
  /// `org_…`
  public var id: String
  /// The lowercase name (`org_name`).
  public var name: String
  public var displayName: String
  /// Member user profile names.
  public var members: [String]
  /// Connections enabled for the organization; empty means all.
  public var connections: [String]

  /// Whether users of `connection` may log in to the organization.
  public func allowsConnection(_ connection: String) -> Bool {
    connections.isEmpty || connections.contains(connection)
  }

  public init(id: String, name: String, displayName: String? = nil, members: [String] = [], connections: [String] = [])
  {
    self.id = id
    self.name = name
    self.displayName = displayName ?? name
    self.members = members
    self.connections = connections
  }
}

/// An Action-like rule that adds a namespaced claim to tokens.
public struct ClaimRule: Sendable {
  public enum Target: String, Sendable, CaseIterable {
    case idToken = "id_token"
    case accessToken = "access_token"
  }

  /// The claim name, e.g. `https://example.com/roles`.
  public var claim: String
  /// A dotted path into the user (`app_metadata.roles`, `email`); used when `value` is nil.
  public var from: String?
  /// A literal value.
  public var value: Value?
  public var tokens: [Target]

  public init(claim: String, from: String? = nil, value: Value? = nil, tokens: [Target] = Target.allCases) {
    self.claim = claim
    self.from = from
    self.value = value
    self.tokens = tokens
  }
}
