import AuthFlowCore
import AuthFlowMail
public import AuthFlowMockTenant
public import AuthFlowRuntime
import Foundation

/// The embedded mock tenant behind the runtime's ``EmbeddedTenantHost``: what the executable,
/// `authflow bench` and the tests inject into ``TenantResolver`` and ``Pipeline/check(_:against:embedded:)``.
/// The runtime never links the mock itself.
public struct MockTenantHost: EmbeddedTenantHost {
  /// The bounds of each tenant this host starts (the defaults of `authflow mock`, or
  /// ``MockStateLimits/embedded(jobs:)`` for a run's own mock).
  public let stateLimits: MockStateLimits

  public init(stateLimits: MockStateLimits = MockStateLimits()) {
    self.stateLimits = stateLimits
  }

  public func profileNames(fixturePath path: String?) -> FixtureProfiles? {
    guard let fixture = Self.load(path).fixture else { return nil }
    // The fields as `tenant.users.NAME` reads them: the values a running mock exposes.
    let fields = { (profiles: [String: Value]) in
      profiles.values.reduce(into: Set<String>()) { fields, profile in
        fields.formUnion(profile.objectValue.map { Array($0.keys) } ?? [])
      }
    }
    return FixtureProfiles(
      clients: Set(fixture.clients.keys), users: Set(fixture.users.keys),
      clientFields: fields(RunningMockTenant.clients(of: fixture)),
      userFields: fields(RunningMockTenant.users(of: fixture)))
  }

  public func start(
    fixturePath path: String?, mailTo: (host: String, port: Int)?
  ) async throws(TenantResolutionError) -> any EmbeddedTenant {
    let loaded = Self.load(path)
    guard let fixture = loaded.fixture, !loaded.diagnostics.hasErrors else {
      throw TenantResolutionError(
        diagnostics: loaded.diagnostics, message: "the mock tenant's fixture is not valid", isEnvironment: false)
    }
    do {
      // The fixture's first key is kept between runs (``SigningKeyCache``): no RSA key generation
      // on each start.
      let cache = SigningKeyCache.user(environment: ProcessInfo.processInfo.environment)
      var configuration = MockTenantConfiguration()
      configuration.stateLimits = stateLimits
      configuration.mailRelay = mailTo.map { SMTPSender(host: $0.host, port: $0.port) }
      return RunningMockTenant(
        handle: try await MockTenantServer.start(fixture: fixture, configuration: configuration, keyCache: cache))
    } catch {
      throw TenantResolutionError(diagnostics: [], message: String(describing: error), isEnvironment: true)
    }
  }

  /// The in-process client of a mock this host started (``MockInProcessClient``); nil for
  /// any other tenant.
  public static func inProcessClient(of tenant: any EmbeddedTenant) -> MockInProcessClient? {
    (tenant as? RunningMockTenant)?.handle.inProcess
  }

  private static func load(_ path: String?) -> FixtureLoader.Result {
    path.map { FixtureLoader.load(path: $0) } ?? FixtureLoader.loadDefault()
  }
}

/// A started mock server, as the runtime reads it.
struct RunningMockTenant: EmbeddedTenant {
  let handle: MockTenantServer.Handle

  var baseURL: String { handle.baseURL }
  var issuer: String { handle.tenant.issuer }
  var clients: [String: Value] { Self.clients(of: handle.tenant.fixture) }
  var users: [String: Value] { Self.users(of: handle.tenant.fixture) }

  /// What this mock does: a fixture that turns refresh-token rotation off takes the capability away.
  var capabilities: Set<String> {
    var builtIn = Capability.mock
    if !handle.tenant.fixture.settings.refreshTokenRotation { builtIn.remove("refresh_token_rotation") }
    if !handle.tenant.fixture.settings.dynamicClientRegistration { builtIn.remove("dynamic_client_registration") }
    return builtIn
  }

  var signaturesMade: Int? { handle.tenant.signaturesMade }

  func stop() async { await handle.stop() }

  static func clients(of fixture: TenantFixture) -> [String: Value] {
    fixture.clients.mapValues { client in
      var members: [String: Value] = [
        "client_id": .string(client.clientID),
        "type": .string(client.kind.rawValue),
        "name": .string(client.name),
        "redirect_uri": client.callbacks.first.map(Value.string) ?? .null,
        "callbacks": .array(client.callbacks.map(Value.string)),
        "logout_urls": .array(client.allowedLogoutURLs.map(Value.string)),
        "grant_types": .array(client.grantTypes.map(Value.string)),
      ]
      if let secret = client.clientSecret { members["client_secret"] = .secret(.string(secret)) }
      return .object(members)
    }
  }

  static func users(of fixture: TenantFixture) -> [String: Value] {
    fixture.users.mapValues { user in
      var members: [String: Value] = [
        "user_id": .string(user.userID),
        "connection": .string(user.connection),
        "email_verified": .bool(user.emailVerified),
        "blocked": .bool(user.blocked),
        "user_metadata": .object(user.userMetadata),
        "app_metadata": .object(user.appMetadata),
      ]
      let optional: [(String, String?)] = [
        ("email", user.email), ("username", user.username), ("phone_number", user.phoneNumber), ("name", user.name),
        ("nickname", user.nickname), ("picture", user.picture), ("given_name", user.givenName),
        ("family_name", user.familyName),
      ]
      for (key, value) in optional { if let value { members[key] = .string(value) } }
      if let password = user.password { members["password"] = .secret(.string(password)) }
      if let totp = user.mfa.first(where: { $0.kind.rawValue == "totp" || $0.kind.rawValue == "otp" }) {
        members["totp_secret"] = .secret(.string(totp.secret))
      }
      return .object(members)
    }
  }
}
