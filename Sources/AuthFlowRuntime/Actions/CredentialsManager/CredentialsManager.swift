import AuthFlowCore
import Foundation

/// Auth0.swift's Credentials Manager rules (v2, docs/protocol.md §3.3 and §3.4) over the scenario's
/// `CredentialsStore`: validity with a minimum TTL, renewal that keeps the stored refresh token
/// when the response has none, API credentials per audience (MRRT) and the SSO exchange.
struct CredentialsManager: Sendable {
  let context: ActionContext
  let api: AuthenticationAPI

  init(_ context: ActionContext) {
    self.context = context
    self.api = AuthenticationAPI(context)
  }

  /// True when `credentials` expire before `now + minTTL` (SDK `willExpire`; `hasExpired` is
  /// `minTTL: 0`), in whole seconds like `expires_at`. Credentials without `expires_at` never expire.
  static func willExpire(_ credentials: [String: Value], within minTTL: Int, now: Double) -> Bool {
    guard let expiresAt = credentials["expires_at"]?.doubleValue else { return false }
    return expiresAt < now.rounded(.down) + Double(minTTL)
  }

  /// SDK `hasValid(minTTL:)`: stored, and either unexpired past `minTTL` or renewable.
  static func hasValid(_ store: CredentialsStore, minTTL: Int, now: Double) -> Bool {
    guard let main = store.main else { return false }
    return !willExpire(main, within: minTTL, now: now) || main["refresh_token"] != nil
  }

  /// SDK `hasScopeChanged`: a requested scope that differs (as a set, case-insensitively).
  static func scopeChanged(_ credentials: [String: Value], requested: String?) -> Bool {
    guard let requested, let stored = credentials["scope"]?.stringValue else { return false }
    func words(_ text: String) -> [String] { text.lowercased().split(separator: " ").map(String.init).sorted() }
    return words(requested) != words(stored)
  }

  /// SDK `credentials(withScope:minTTL:)`: the stored credentials, renewed (and stored) when
  /// expired, expiring within `minTTL` or asked for another scope. `renewed` says which.
  func get(scope: String?, minTTL: Int, force: Bool = false) async throws(ActionError) -> ActionOutcome {
    var store = await context.credentialsStore()
    let now = await context.now()
    guard Self.hasValid(store, minTTL: minTTL, now: now) || (force && store.main != nil), let main = store.main else {
      return .protocolError(CredentialsManagerErrors.noCredentials, result: [:])
    }
    let due = force || Self.willExpire(main, within: minTTL, now: now) || Self.scopeChanged(main, requested: scope)
    guard due else { return .success(.object(main.merging(["renewed": false]) { _, new in new })) }
    guard let refreshToken = main["refresh_token"]?.stringValue else {
      return .protocolError(CredentialsManagerErrors.noRefreshToken, result: [:])
    }
    var body: [String: Value] = ["refresh_token": .secret(.string(refreshToken))]
    AuthenticationAPI.put("scope", scope, in: &body)
    let outcome = try await api.token(grant: AuthenticationAPI.Grant.refreshToken, body)
    guard case .success(let value) = outcome, let renewed = value.objectValue else {
      return CredentialsManagerErrors.wrap(outcome, as: CredentialsManagerErrors.refreshFailed)
    }
    var fresh = renewed
    if fresh["refresh_token"] == nil || fresh["refresh_token"]?.isNull == true {
      fresh["refresh_token"] = main["refresh_token"]
    }
    if Self.willExpire(fresh, within: minTTL, now: await context.now()) {
      return .protocolError(
        CredentialsManagerErrors.largeMinTTL(minTTL, lifetime: fresh["expires_in"]?.intValue ?? 0), result: [:])
    }
    store.store(fresh)
    await context.setCredentialsStore(store)
    var result = store.main ?? fresh
    result["renewed"] = true
    result["response"] = renewed["response"]
    return .success(.object(result))
  }

  /// The host of the tenant's base URL, without the port (docs/protocol.md §3.1 notes).
  var sessionTransferAudience: String {
    let host = URL(string: context.tenant.baseURL)?.host ?? ""
    return "urn:\(host):session_transfer"
  }
}

/// The Credentials Manager's own errors (Auth0.swift `CredentialsManagerError`), as step errors.
enum CredentialsManagerErrors {
  static let noCredentials = ProtocolError(
    code: StepErrorCode.noCredentials.code, description: "No valid credentials found (store credentials first).")
  static let noRefreshToken = ProtocolError(
    code: StepErrorCode.noRefreshToken.code,
    description: "No refresh token is stored; request the offline_access scope.")
  static let refreshFailed = StepErrorCode.refreshFailed.code
  static let revokeFailed = StepErrorCode.revokeFailed.code
  static let apiExchangeFailed = StepErrorCode.apiExchangeFailed.code
  static let ssoExchangeFailed = StepErrorCode.ssoExchangeFailed.code

  static func largeMinTTL(_ minTTL: Int, lifetime: Int) -> ProtocolError {
    ProtocolError(
      code: StepErrorCode.largeMinTTL.code,
      description:
        "The minTTL requested (\(minTTL)s) is greater than the lifetime of the renewed access token (\(lifetime)s).")
  }

  /// A failed exchange as a Credentials Manager error `code`: the cause's code and description
  /// in the description, its status and body kept.
  static func wrap(_ outcome: ActionOutcome, as code: String) -> ActionOutcome {
    guard case .protocolError(let cause, let result) = outcome else { return outcome }
    let description = "\(cause.code)" + (cause.description.map { ": \($0)" } ?? "")
    var members = result.objectValue ?? [:]
    members["cause"] = cause.value
    return .protocolError(
      ProtocolError(code: code, description: description, status: cause.status, body: cause.body),
      result: .object(members))
  }
}
