public import AuthFlowCore
import AuthFlowJOSE
import AuthFlowYAML
import Foundation

/// Reads a tenant fixture (`tenants/*.yaml`) into a `TenantFixture`, reporting every problem as a
/// located diagnostic (unknown keys with "did you mean", wrong types, unknown references). The keys
/// each mapping accepts are declared, with their types, in ``FixtureSchema``, which
/// `schemas/tenant.schema.json` is generated from.
public enum FixtureLoader {
  /// The outcome of a load: the fixture (nil when there are errors) and every diagnostic.
  public struct Result: Sendable {
    public var fixture: TenantFixture?
    public var diagnostics: [Diagnostic]
  }

  /// Loads the fixture at `path`.
  public static func load(path: String) -> Result {
    let (text, problem) = YAMLLimits.readFile(at: path)
    guard let text else {
      let diagnostic =
        problem ?? .error("cannot read the fixture file", at: SourceLocation(file: path, line: 1, column: 1))
      return Result(fixture: nil, diagnostics: [diagnostic])
    }
    return load(text: text, file: path)
  }

  /// The fixture that ships with authflow (``BuiltInFixture``; `tenants/mock.yaml` is generated from
  /// it).
  public static func loadDefault() -> Result {
    guard let path = defaultFixturePath else {
      return Result(fixture: nil, diagnostics: [.error("the default fixture is missing from the bundle", at: nil)])
    }
    return load(path: path)
  }

  /// Where the built-in fixture's file is (`authflow bench` derives its tenant from it).
  public static var defaultFixturePath: String? { BuiltInFixture.path }

  /// Parses fixture text; `file` names it in diagnostics.
  public static func load(text: String, file: String) -> Result {
    let (tree, yamlDiagnostics) = YAMLLoader.load(text, file: file)
    guard let tree else { return Result(fixture: nil, diagnostics: yamlDiagnostics) }
    var reader = FixtureReader(diagnostics: yamlDiagnostics)
    let fixture = read(tree, &reader)
    let diagnostics = reader.diagnostics.sortedByLocation
    return Result(fixture: diagnostics.hasErrors ? nil : fixture, diagnostics: diagnostics)
  }

  private static func read(_ tree: YAMLNode, _ reader: inout FixtureReader) -> TenantFixture {
    var fixture = TenantFixture()
    guard let top = reader.mapping(tree, "a tenant fixture", keys: FixtureSchema.top.names) else { return fixture }
    if let node = top["tenant"] { fixture.settings = readSettings(node, &reader) }
    if let node = top["signing_key"],
      let key = reader.mapping(node, "signing_key", keys: FixtureSchema.signingKey.names)
    {
      fixture.signingKeyPEM = reader.string(key["pem"], "signing_key.pem")
      fixture.signingKeyID = reader.string(key["kid"], "signing_key.kid")
    }
    for (profile, node) in reader.entries(top["clients"], "clients") {
      if let client = readClient(profile, node, &reader) { fixture.clients[profile] = client }
    }
    for node in reader.list(top["apis"], "apis") {
      if let api = readAPI(node, &reader) { fixture.apis.append(api) }
    }
    for node in reader.list(top["connections"], "connections") {
      guard
        let members = reader.mapping(
          node, "a connection", keys: FixtureSchema.connection.names),
        let name = reader.requiredString(members["name"], "name", in: node),
        let strategy = reader.choice(members["strategy"], "connection strategy", as: ConnectionConfig.Strategy.self)
      else { continue }
      let clients = reader.strings(members["enabled_clients"], "enabled_clients") ?? []
      var connection = ConnectionConfig(name: name, strategy: strategy, enabledClients: clients)
      for entry in reader.list(members["subject_tokens"], "subject_tokens") {
        guard let fields = reader.mapping(entry, "a subject token", keys: FixtureSchema.subjectToken.names),
          let token = reader.requiredString(fields["token"], "token", in: entry),
          let userID = reader.requiredString(fields["user_id"], "user_id", in: entry)
        else { continue }
        connection.subjectTokens.append(
          SubjectToken(
            token: token, userID: userID, email: reader.string(fields["email"], "email"),
            name: reader.string(fields["name"], "name")))
      }
      for entry in reader.list(members["accounts"], "accounts") {
        guard
          let fields = reader.mapping(
            entry, "a social account", keys: FixtureSchema.socialAccount.names),
          let userID = reader.requiredString(fields["user_id"], "user_id", in: entry),
          let login = reader.requiredString(fields["login"], "login", in: entry)
        else { continue }
        connection.accounts.append(
          SocialAccount(
            userID: userID, login: login, email: reader.string(fields["email"], "email"),
            name: reader.string(fields["name"], "name"), picture: reader.string(fields["picture"], "picture")))
      }
      if !connection.accounts.isEmpty, strategy != .social, let location = members["accounts"]?.location {
        reader.diagnostics.append(.error("only a social connection has 'accounts'", at: location))
      }
      fixture.connections.append(connection)
    }
    for (profile, node) in reader.entries(top["users"], "users") {
      if let user = readUser(profile, node, &reader) { fixture.users[profile] = user }
    }
    for node in reader.list(top["organizations"], "organizations") {
      if let organization = readOrganization(node, fixture: fixture, &reader) {
        fixture.organizations.append(organization)
      }
    }
    for node in reader.list(top["claim_rules"], "claim_rules") {
      guard let members = reader.mapping(node, "a claim rule", keys: FixtureSchema.claimRule.names),
        let claim = reader.requiredString(members["claim"], "claim", in: node)
      else { continue }
      var rule = ClaimRule(claim: claim, from: reader.string(members["from"], "from"))
      rule.value = members["value"].map { reader.value($0) }
      if let tokens = members["tokens"] {
        rule.tokens = reader.list(tokens, "tokens").compactMap {
          reader.choice($0, "token kind", as: ClaimRule.Target.self)
        }
      }
      if rule.from == nil && rule.value == nil {
        reader.diagnostics.append(.error("a claim rule needs 'from' or 'value'", at: node.location))
      }
      fixture.claimRules.append(rule)
    }
    checkReferences(fixture, top, &reader)
    return fixture
  }

  private static func readSettings(_ node: YAMLNode, _ reader: inout FixtureReader) -> TenantSettings {
    var settings = TenantSettings()
    guard let members = reader.mapping(node, "tenant settings", keys: FixtureSchema.tenant.names) else {
      return settings
    }
    settings.issuer = reader.string(members["issuer"], "issuer")
    settings.refreshTokenRotation =
      reader.bool(members["refresh_token_rotation"], "refresh_token_rotation") ?? settings.refreshTokenRotation
    settings.refreshTokenReuseLeeway =
      reader.int(members["refresh_token_reuse_leeway"], "refresh_token_reuse_leeway") ?? 0
    settings.refreshTokenLifetime =
      reader.int(members["refresh_token_lifetime"], "refresh_token_lifetime") ?? settings.refreshTokenLifetime
    settings.idTokenLifetime = reader.int(members["id_token_lifetime"], "id_token_lifetime") ?? settings.idTokenLifetime
    settings.accessTokenLifetime =
      reader.int(members["access_token_lifetime"], "access_token_lifetime") ?? settings.accessTokenLifetime
    settings.authorizationCodeLifetime =
      reader.int(members["authorization_code_lifetime"], "authorization_code_lifetime")
      ?? settings.authorizationCodeLifetime
    settings.sessionLifetime = reader.int(members["session_lifetime"], "session_lifetime") ?? settings.sessionLifetime
    settings.legacyScopeClaims = reader.bool(members["legacy_scope_claims"], "legacy_scope_claims") ?? false
    settings.organizationNamesInAuthAPI =
      reader.bool(members["organization_names_in_auth_api"], "organization_names_in_auth_api") ?? false
    settings.botDetection = reader.bool(members["bot_detection"], "bot_detection") ?? false
    settings.bruteForceLimit = reader.int(members["brute_force_limit"], "brute_force_limit") ?? settings.bruteForceLimit
    settings.rateLimitPerMinute = reader.int(members["rate_limit_per_minute"], "rate_limit_per_minute")
    if let window = reader.int(members["rate_limit_window"], "rate_limit_window") {
      if TenantSettings.rateLimitWindowRange.contains(window) {
        settings.rateLimitWindow = window
      } else if let node = members["rate_limit_window"] {
        reader.diagnostics.append(FixtureMessages.rateLimitWindowOutOfRange(window, at: node.location))
      }
    }
    settings.allowedLogoutURLs = reader.strings(members["allowed_logout_urls"], "allowed_logout_urls") ?? []
    settings.passwordPolicy =
      members["password_policy"].flatMap { reader.choice($0, "password policy", as: PasswordPolicy.self) } ?? .fair
    settings.signupEnumerationProtection =
      reader.bool(members["signup_enumeration_protection"], "signup_enumeration_protection") ?? false
    settings.passwordDictionary = reader.bool(members["password_dictionary"], "password_dictionary") ?? false
    settings.passwordNoPersonalInfo =
      reader.bool(members["password_no_personal_info"], "password_no_personal_info") ?? false
    settings.passwordDictionaryWords =
      reader.strings(members["password_dictionary_words"], "password_dictionary_words") ?? []
    settings.passwordHistorySize = reader.int(members["password_history_size"], "password_history_size") ?? 0
    settings.dynamicClientRegistration =
      reader.bool(members["dynamic_client_registration"], "dynamic_client_registration") ?? false
    if let node = members["login_page"] { settings.loginPage = readLoginPage(node, &reader) }
    if let node = members["id_token_signing_alg"], let name = reader.string(node, "id_token_signing_alg") {
      if let algorithm = JWSAlgorithm(rawValue: name), algorithm != .none {
        settings.idTokenSigningAlgorithm = algorithm
      } else {
        reader.diagnostics.append(
          FixtureMessages.unknownChoice(
            name, for: "id_token_signing_alg", at: node.location, known: JWSAlgorithm.signing.map(\.rawValue)))
      }
    }
    settings.idTokenKeyID = reader.bool(members["id_token_kid"], "id_token_kid") ?? true
    settings.updatedAtFormat =
      reader.choice(members["updated_at_format"], "updated_at_format", as: UpdatedAtFormat.self) ?? .iso8601
    if !FixtureSchema.passwordHistoryRange.contains(settings.passwordHistorySize),
      let location = members["password_history_size"]?.location
    {
      reader.diagnostics.append(.error("password_history_size is between 0 and 24", at: location))
    }
    return settings
  }

  /// `login_page: { style: universal_login | single_field | app, field: NAME }`.
  private static func readLoginPage(_ node: YAMLNode, _ reader: inout FixtureReader) -> LoginPageStyle {
    guard let members = reader.mapping(node, "login_page", keys: FixtureSchema.loginPage.names) else {
      return .universalLogin
    }
    let style = reader.string(members["style"], "login_page style") ?? "universal_login"
    let field = reader.string(members["field"], "login_page field")
    switch style {
    case "universal_login": return .universalLogin
    case "app": return .app
    case "single_field":
      let name = field ?? "sub"
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
        reader.diagnostics.append(
          .error(
            "login_page field '\(name)' is not a form field name", at: members["field"]?.location ?? node.location,
            hint: "use letters, digits, '_' or '-', e.g. 'sub'"))
        return .universalLogin
      }
      return .singleField(name)
    default:
      reader.diagnostics.append(
        .error(
          "unknown login_page style '\(style)'", at: members["style"]?.location ?? node.location,
          hint: Suggestion.hint(for: style, in: LoginPageStyle.names)
            ?? "use one of \(LoginPageStyle.names.joined(separator: ", "))"))
      return .universalLogin
    }
  }

  private static func readClient(_ profile: String, _ node: YAMLNode, _ reader: inout FixtureReader) -> ClientConfig? {
    guard let members = reader.mapping(node, "client '\(profile)'", keys: FixtureSchema.client.names),
      let clientID = reader.requiredString(members["client_id"], "client_id", in: node),
      let kind = reader.choice(members["type"], "client type", as: ClientConfig.Kind.self)
    else { return nil }
    var client = ClientConfig(
      profile: profile, clientID: clientID, clientSecret: reader.string(members["client_secret"], "client_secret"),
      kind: kind, name: reader.string(members["name"], "name"),
      callbacks: reader.strings(members["callbacks"], "callbacks") ?? [],
      allowedLogoutURLs: reader.strings(members["allowed_logout_urls"], "allowed_logout_urls") ?? [],
      grantTypes: reader.strings(members["grant_types"], "grant_types") ?? [])
    client.legacyScopeClaims = reader.bool(members["legacy_scope_claims"], "legacy_scope_claims")
    if let node = members["organization_usage"],
      let usage = reader.choice(node, "organization usage", as: OrganizationUsage.self)
    {
      client.organizationUsage = usage
    }
    if let node = members["organization_require_behavior"],
      let behavior = reader.choice(node, "organization require behavior", as: OrganizationRequireBehavior.self)
    {
      client.organizationRequireBehavior = behavior
    }
    client.initiateLoginURI = reader.string(members["initiate_login_uri"], "initiate_login_uri")
    for policy in reader.list(members["refresh_token_policies"], "refresh_token_policies") {
      guard let fields = reader.mapping(policy, "a refresh token policy", keys: FixtureSchema.refreshTokenPolicy.names),
        let audience = reader.requiredString(fields["audience"], "audience", in: policy)
      else { continue }
      client.refreshTokenPolicies.append(
        RefreshTokenPolicy(audience: audience, scope: reader.strings(fields["scope"], "scope") ?? []))
    }
    for (audience, scopes) in reader.entries(members["api_grants"], "api_grants") {
      client.apiGrants[audience] = reader.strings(scopes, "api_grants scopes") ?? []
    }
    if FixtureSchema.confidentialKinds.contains(kind), client.clientSecret == nil {
      reader.diagnostics.append(
        .error("a \(kind.rawValue) client is confidential and needs 'client_secret'", at: node.location))
    }
    return client
  }

  private static func readAPI(_ node: YAMLNode, _ reader: inout FixtureReader) -> APIConfig? {
    guard let members = reader.mapping(node, "an API", keys: FixtureSchema.api.names) else { return nil }
    let kind = members["kind"].flatMap { reader.choice($0, "API kind", as: APIConfig.Kind.self) } ?? .custom
    let identifier: String
    if kind == .custom {
      guard let text = reader.requiredString(members["identifier"], "identifier", in: node) else { return nil }
      identifier = text
    } else {
      identifier = reader.string(members["identifier"], "identifier") ?? kind.rawValue
    }
    return APIConfig(
      kind: kind, identifier: identifier, name: reader.string(members["name"], "name"),
      scopes: reader.strings(members["scopes"], "scopes") ?? [],
      allowOfflineAccess: reader.bool(members["allow_offline_access"], "allow_offline_access") ?? true)
  }

  private static func readUser(_ profile: String, _ node: YAMLNode, _ reader: inout FixtureReader) -> UserRecord? {
    guard let members = reader.mapping(node, "user '\(profile)'", keys: FixtureSchema.user.names) else { return nil }
    var user = UserRecord(
      profile: profile, userID: reader.string(members["user_id"], "user_id") ?? "auth0|\(profile)",
      connection: reader.string(members["connection"], "connection") ?? "Username-Password-Authentication",
      email: reader.string(members["email"], "email"),
      emailVerified: reader.bool(members["email_verified"], "email_verified") ?? true,
      password: reader.string(members["password"], "password"),
      username: reader.string(members["username"], "username"),
      phoneNumber: reader.string(members["phone_number"], "phone_number"),
      phoneVerified: reader.bool(members["phone_verified"], "phone_verified") ?? false,
      name: reader.string(members["name"], "name"),
      nickname: reader.string(members["nickname"], "nickname"), picture: reader.string(members["picture"], "picture"),
      givenName: reader.string(members["given_name"], "given_name"),
      familyName: reader.string(members["family_name"], "family_name"),
      userMetadata: reader.object(members["user_metadata"], "user_metadata") ?? [:],
      appMetadata: reader.object(members["app_metadata"], "app_metadata") ?? [:],
      blocked: reader.bool(members["blocked"], "blocked") ?? false)
    if let updated = reader.int(members["updated_at"], "updated_at") { user.updatedAt = Double(updated) }
    for factor in reader.list(members["mfa"], "mfa") {
      guard let fields = reader.mapping(factor, "an MFA enrolment", keys: FixtureSchema.mfaEnrolment.names),
        let kind = reader.choice(fields["type"], "MFA type", as: MFAEnrollment.Kind.self),
        let secret = reader.requiredString(fields["secret"], "secret", in: factor)
      else { continue }
      if kind == .totp, Base32.decodeIsValid(secret) == false, let location = fields["secret"]?.location {
        reader.diagnostics.append(.error("a TOTP secret must be base32", at: location))
      }
      user.mfa.append(MFAEnrollment(kind: kind, secret: secret))
    }
    return user
  }

  private static func readOrganization(
    _ node: YAMLNode, fixture: TenantFixture, _ reader: inout FixtureReader
  )
    -> OrganizationConfig?
  {
    guard let members = reader.mapping(node, "an organization", keys: FixtureSchema.organization.names),
      let id = reader.requiredString(members["id"], "id", in: node),
      let name = reader.requiredString(members["name"], "name", in: node)
    else { return nil }
    if !id.hasPrefix("org_"), let location = members["id"]?.location {
      reader.diagnostics.append(.error("an organization id starts with 'org_'", at: location))
    }
    let memberNodes = reader.list(members["members"], "members")
    for member in memberNodes {
      if let profile = reader.string(member, "member"), fixture.users[profile] == nil {
        reader.diagnostics.append(
          FixtureMessages.unknownReference(profile, kind: "user", at: member.location, known: Array(fixture.users.keys))
        )
      }
    }
    return OrganizationConfig(
      id: id, name: name.lowercased(), displayName: reader.string(members["display_name"], "display_name"),
      members: memberNodes.compactMap { if case .scalar(let scalar) = $0 { scalar.text } else { nil } },
      connections: reader.strings(members["connections"], "connections") ?? [])
  }

  private static func checkReferences(
    _ fixture: TenantFixture, _ top: [String: YAMLNode], _ reader: inout FixtureReader
  ) {
    var seen: [String: String] = [:]
    for (profile, client) in fixture.clients.sorted(by: { $0.key < $1.key }) {
      if let other = seen[client.clientID] {
        let location = top["clients"]?.location
        reader.diagnostics.append(
          FixtureMessages.duplicate(
            "client_id of '\(profile)' and '\(other)'", client.clientID,
            at: location ?? SourceLocation(file: "", line: 1, column: 1)))
      }
      seen[client.clientID] = profile
    }
    let connectionNames = fixture.connections.map(\.name)
    for (profile, node) in reader.entries(top["users"], "users") {
      guard let user = fixture.users[profile], !connectionNames.contains(user.connection) else { continue }
      reader.diagnostics.append(
        FixtureMessages.unknownReference(user.connection, kind: "connection", at: node.location, known: connectionNames)
      )
    }
  }
}

extension Base32 {
  static func decodeIsValid(_ text: String) -> Bool { decode(text) != nil }
}

extension FixtureMessages {
  static func rateLimitWindowOutOfRange(_ seconds: Int, at location: SourceLocation) -> Diagnostic {
    let range = TenantSettings.rateLimitWindowRange
    return .error(
      "rate_limit_window must be from \(range.lowerBound) to \(range.upperBound) seconds, found \(seconds)",
      at: location)
  }
}
