public import AuthFlowHTTP

/// Fetches and reads an OpenID Provider's discovery document through the run's transport.
public enum ProviderDiscovery {
  /// A discovery document that could not be had: the provider is unreachable or misbehaving.
  public struct Failure: Error, Sendable, Equatable {
    /// The URL asked.
    public var url: String
    public var message: String
  }

  /// `GET {issuer}/.well-known/openid-configuration`, parsed. Any failure (no answer, a non-200,
  /// a body that is not a discovery document) is a `Failure` naming the URL.
  public static func fetch(
    issuer: String, transport: any HTTPTransport
  ) async throws(Failure) -> ProviderMetadata {
    let url = ProviderMetadata.discoveryURL(issuer: issuer)
    let response: HTTPResponse
    do {
      response = try await transport.send(
        HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"]))
    } catch {
      throw Failure(url: url, message: Messages.unreachable(url, detail: error.message))
    }
    guard response.status == 200 else { throw Failure(url: url, message: Messages.status(url, response.status)) }
    guard let document = response.jsonValue else { throw Failure(url: url, message: Messages.notJSON(url)) }
    switch ProviderMetadata.parse(document) {
    case .success(let metadata): return metadata
    case .failure(let problem): throw Failure(url: url, message: "\(url): \(problem.description)")
    }
  }

  /// The messages of discovery.
  public enum Messages {
    static func unreachable(_ url: String, detail: String) -> String {
      "could not fetch the discovery document \(SensitiveData.maskURL(url)): \(detail)"
    }

    static func status(_ url: String, _ status: Int) -> String {
      "the discovery document \(SensitiveData.maskURL(url)) answered HTTP \(status) (expected 200)"
    }

    static func notJSON(_ url: String) -> String {
      "the discovery document \(SensitiveData.maskURL(url)) is not JSON"
    }

    /// The configured issuer differs from the one the provider names (OpenID Connect Discovery
    /// 1.0 §4.3: they must be identical, so ID tokens would fail the `iss` check).
    public static func issuerMismatch(configured: String, discovered: String) -> String {
      "the discovery document names issuer '\(discovered)', but the profile says '\(configured)'; "
        + "set `issuer: \(discovered)` in the tenant profile (they must be identical, trailing slash included)"
    }
  }
}
