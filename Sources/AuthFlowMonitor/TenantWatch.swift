import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
import AuthFlowResults
import AuthFlowRuntime
import Foundation
import Synchronization

/// What a smoke check watches on each tenant beyond its flows: its signing keys (how many, and
/// when the set changed), the expiry of the newest ID and access tokens its runs received, and
/// the rate-limit budget its headers leave.
final class TenantWatch: Sendable {
  /// The JWKS is read at most this often per tenant (after a run on it).
  static let keysInterval: Duration = .seconds(60)

  private struct TenantState {
    var keysReadAt: ContinuousClock.Instant?
    var keyFingerprint: [String]?
    var expiries: [String: Date] = [:]
  }

  private let state = Mutex<[String: TenantState]>([:])
  let metrics: MonitorMetrics

  init(metrics: MonitorMetrics) {
    self.metrics = metrics
  }

  /// After a run of `report` on `tenant`: the tokens it received, the budget left, and (at most
  /// once a ``keysInterval``) the key set.
  func observe(
    _ report: ScenarioReport, tenant: TenantContext, finishedAt: Date, transport: any HTTPTransport,
    pacer: RateLimitPacer?
  ) async {
    let found = Self.expiries(in: report, finishedAt: finishedAt)
    if !found.isEmpty {
      state.withLock { states in
        for (kind, date) in found { states[tenant.name, default: TenantState()].expiries[kind] = date }
      }
    }
    if let pacer, let budget = pacer.budget(host: RateLimitPacer.BucketKey(url: tenant.baseURL).host) {
      metrics.recordRateLimit(tenant: tenant.name, remaining: budget.remaining, limit: budget.limit)
    }
    await readKeys(tenant, transport: transport)
  }

  /// Sets the token-expiry gauges to the seconds left now (called before each scrape).
  func refresh(now: Date = Date()) {
    let expiries = state.withLock { states in states.mapValues(\.expiries) }
    for (tenant, kinds) in expiries {
      for (kind, date) in kinds {
        metrics.recordTokenExpiry(tenant: tenant, kind: kind, seconds: date.timeIntervalSince(now))
      }
    }
  }

  private func readKeys(_ tenant: TenantContext, transport: any HTTPTransport) async {
    guard let uri = tenant.endpoints.jwks else { return }
    let now = ContinuousClock.now
    let due = state.withLock { states -> Bool in
      if let last = states[tenant.name]?.keysReadAt, now - last < Self.keysInterval { return false }
      states[tenant.name, default: TenantState()].keysReadAt = now
      return true
    }
    guard due else { return }
    guard let response = try? await transport.send(HTTPRequest(method: .get, url: uri)), response.status == 200,
      let set = try? JSONDecoder().decode(JWKSet.self, from: Data(response.body))
    else { return }
    let fingerprint = set.keys.map { "\($0.kid ?? "")|\($0.kty)|\($0.n ?? "")|\($0.x ?? "")" }.sorted()
    let changed = state.withLock { states -> Bool in
      let before = states[tenant.name]?.keyFingerprint
      states[tenant.name, default: TenantState()].keyFingerprint = fingerprint
      return before != fingerprint
    }
    metrics.recordKeys(tenant: tenant.name, count: set.keys.count, changedAt: changed ? Date() : nil)
  }

  /// The expiry of the newest ID and access token in a run's step results: a JWT's `exp`, or an
  /// opaque access token's `expires_in` counted from when the run finished.
  static func expiries(in report: ScenarioReport, finishedAt: Date) -> [String: Date] {
    var found: [String: Date] = [:]
    func keep(_ kind: String, _ date: Date) {
      found[kind] = max(found[kind] ?? date, date)
    }
    func visit(_ value: Value, depth: Int) {
      guard depth < 8 else { return }
      switch value {
      case .object(let members):
        for (key, member) in members {
          let kind = key == "id_token" ? "id" : key == "access_token" ? "access" : nil
          if let kind, let expiry = tokenExpiry(member) ?? expiresIn(members, from: finishedAt, for: kind) {
            keep(kind, expiry)
          } else {
            visit(member, depth: depth + 1)
          }
        }
      case .array(let items):
        for item in items.prefix(100) { visit(item, depth: depth + 1) }
      case .secret(let inner):
        visit(inner, depth: depth + 1)
      default:
        break
      }
    }
    for step in report.steps {
      if let result = step.result { visit(result, depth: 0) }
    }
    return found
  }

  private static func tokenExpiry(_ value: Value) -> Date? {
    switch value {
    case .jwt(let token):
      return token.claims["exp"].flatMap { $0.doubleValue }.map { Date(timeIntervalSince1970: $0) }
    case .secret(let inner):
      return tokenExpiry(inner)
    case .object(let members):
      // A token written out as the scenario reads it: { raw, header, claims }.
      if case .object(let claims)? = members["claims"], let exp = claims["exp"]?.doubleValue {
        return Date(timeIntervalSince1970: exp)
      }
      return nil
    default:
      return nil
    }
  }

  private static func expiresIn(_ members: [String: Value], from finished: Date, for kind: String) -> Date? {
    guard kind == "access", let seconds = members["expires_in"]?.doubleValue else { return nil }
    return finished.addingTimeInterval(seconds)
  }
}
