import AuthFlowCore
public import AuthFlowHTTP
public import AuthFlowJOSE
import Foundation

/// The tenants' signing keys, fetched once per run and shared by every action: the JWKS named by
/// the discovery document's `jwks_uri` (falling back to `.well-known/jwks.json`).
///
/// An actor because concurrent scenarios share it. A token whose `kid` is not in the cached set
/// triggers one refetch (keys rotate); a second miss is the docs/protocol.md §5 "Could not find a public key" error.
public actor JWKSCache {
  private var keys: [String: VerificationKeys] = [:]
  /// How many times each tenant's JWKS was fetched (tests check the refetch-once rule).
  public private(set) var fetchCount: [String: Int] = [:]

  public init() {}

  /// The keys of the tenant at `baseURL`, fetched on first use; `refresh` forces a refetch.
  public func keys(
    baseURL: String, transport: any HTTPTransport, refresh: Bool = false
  ) async throws(JWKSFetchError) -> VerificationKeys {
    if !refresh, let cached = keys[baseURL] { return cached }
    let fetched = try await Self.fetch(baseURL: baseURL, transport: transport)
    fetchCount[baseURL, default: 0] += 1
    keys[baseURL] = fetched
    return fetched
  }

  /// The keys that know `kid`: the cached set, or a fresh one when the cached set does not.
  public func keys(
    baseURL: String, transport: any HTTPTransport, kid: String?
  ) async throws(JWKSFetchError) -> VerificationKeys {
    let cached = try await keys(baseURL: baseURL, transport: transport)
    guard let kid, !cached.contains(kid: kid) else { return cached }
    return try await keys(baseURL: baseURL, transport: transport, refresh: true)
  }

  /// The keys at `jwksURI` (a discovered `jwks_uri`), cached by URI; refetched once when they do
  /// not know `kid`.
  public func keys(
    jwksURI: String, transport: any HTTPTransport, kid: String?
  ) async throws(JWKSFetchError) -> VerificationKeys {
    if let cached = keys[jwksURI], kid.map({ cached.contains(kid: $0) }) ?? true { return cached }
    let fetched = try await Self.fetchSet(jwksURL: jwksURI, transport: transport)
    fetchCount[jwksURI, default: 0] += 1
    keys[jwksURI] = fetched
    return fetched
  }

  /// The keys of `tenant`: from its discovered `jwks_uri` on an `oidc` tenant, else from its base URL.
  public func keys(
    for tenant: TenantContext, transport: any HTTPTransport, kid: String?
  ) async throws(JWKSFetchError) -> VerificationKeys {
    if tenant.endpoints.layout == .discovered {
      guard let uri = tenant.endpoints.jwks else {
        throw JWKSFetchError(message: "tenant '\(tenant.name)' has no jwks_uri in its discovery document")
      }
      return try await keys(jwksURI: uri, transport: transport, kid: kid)
    }
    return try await keys(baseURL: tenant.baseURL, transport: transport, kid: kid)
  }

  private static func fetch(
    baseURL: String, transport: any HTTPTransport
  ) async throws(JWKSFetchError)
    -> VerificationKeys
  {
    var jwksURL = baseURL + ".well-known/jwks.json"
    if let discovery = try? await transport.send(
      HTTPRequest(method: .get, url: baseURL + ".well-known/openid-configuration")),
      discovery.status == 200, let uri = discovery.jsonValue?.member("jwks_uri")?.stringValue
    {
      jwksURL = uri
    }
    return try await fetchSet(jwksURL: jwksURL, transport: transport)
  }

  /// Fetches and parses one JWK set.
  static func fetchSet(
    jwksURL: String, transport: any HTTPTransport
  ) async throws(JWKSFetchError)
    -> VerificationKeys
  {
    let response: HTTPResponse
    do {
      response = try await transport.send(HTTPRequest(method: .get, url: jwksURL))
    } catch {
      throw JWKSFetchError(message: "could not fetch \(jwksURL): \(error.message)")
    }
    // Read leniently, key by key, and judged (JWKSRules): a malformed key is a finding of the
    // steps that use the set, not a set that cannot be read.
    guard response.status == 200, let document = response.jsonValue, let keys = VerificationKeys(document: document)
    else {
      throw JWKSFetchError(message: "\(jwksURL) answered \(response.status) without a JWK set")
    }
    return keys
  }
}

/// The JWKS could not be fetched (the tenant is unreachable or misbehaving).
public struct JWKSFetchError: Error, Sendable {
  public var message: String
}
