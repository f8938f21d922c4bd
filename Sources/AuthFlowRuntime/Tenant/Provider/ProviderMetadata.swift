public import AuthFlowCore
import AuthFlowHTTP

/// An OpenID Provider's discovery document (OpenID Connect Discovery 1.0 §3, RFC 8414): where its
/// endpoints are and what it supports. Lists the provider omits stay nil, so "absent" and "empty"
/// can be told apart (an absent `grant_types_supported` means the OpenID default).
public struct ProviderMetadata: Sendable, Equatable {
  public var issuer: String
  public var authorizationEndpoint: String?
  public var tokenEndpoint: String?
  public var userinfoEndpoint: String?
  public var revocationEndpoint: String?
  public var endSessionEndpoint: String?
  public var jwksURI: String?
  public var grantTypesSupported: [String]?
  public var responseTypesSupported: [String]?
  public var responseModesSupported: [String]?
  public var codeChallengeMethodsSupported: [String]?
  public var scopesSupported: [String]?
  public var tokenEndpointAuthMethodsSupported: [String]?
  public var idTokenSigningAlgValuesSupported: [String]?
  /// The whole document as served.
  public var document: Value

  /// The grant types an OP supports when its document omits `grant_types_supported`
  /// (OpenID Connect Discovery 1.0 §3).
  public static let defaultGrantTypes = ["authorization_code", "implicit"]
  /// The client authentication an OP supports when its document omits
  /// `token_endpoint_auth_methods_supported` (OpenID Connect Discovery 1.0 §3).
  public static let defaultTokenEndpointAuthMethods = ["client_secret_basic"]

  /// Reads a discovery document; nil with the reason when it is not one (not an object, no
  /// `issuer`, a member of the wrong type).
  public static func parse(_ document: Value) -> Result<ProviderMetadata, ProviderMetadataProblem> {
    guard let members = document.objectValue else { return .failure(.notAnObject) }
    guard let issuer = members["issuer"]?.stringValue, !issuer.isEmpty else { return .failure(.noIssuer) }
    var metadata = ProviderMetadata(issuer: issuer, document: document)
    func url(_ name: String) throws(ProviderMetadataProblem) -> String? {
      guard let value = members[name], !value.isNull else { return nil }
      guard let text = value.stringValue, !text.isEmpty else { throw .wrongType(name, expected: "a URL") }
      guard URLSecurity.httpScheme(of: text) != nil else {
        throw .wrongType(name, expected: "an absolute http or https URL")
      }
      // An https provider's endpoint over plain HTTP would carry codes, tokens and client
      // secrets in the clear: a downgrade, whoever wrote the document.
      if URLSecurity.isDowngrade(from: issuer, to: text) { throw .insecureEndpoint(name, url: text) }
      return text
    }
    func list(_ name: String) throws(ProviderMetadataProblem) -> [String]? {
      guard let value = members[name], !value.isNull else { return nil }
      guard let items = value.arrayValue else { throw .wrongType(name, expected: "an array of strings") }
      var strings: [String] = []
      for item in items {
        guard let text = item.stringValue else { throw .wrongType(name, expected: "an array of strings") }
        strings.append(text)
      }
      return strings
    }
    do {
      metadata.authorizationEndpoint = try url("authorization_endpoint")
      metadata.tokenEndpoint = try url("token_endpoint")
      metadata.userinfoEndpoint = try url("userinfo_endpoint")
      metadata.revocationEndpoint = try url("revocation_endpoint")
      metadata.endSessionEndpoint = try url("end_session_endpoint")
      metadata.jwksURI = try url("jwks_uri")
      metadata.grantTypesSupported = try list("grant_types_supported")
      metadata.responseTypesSupported = try list("response_types_supported")
      metadata.responseModesSupported = try list("response_modes_supported")
      metadata.codeChallengeMethodsSupported = try list("code_challenge_methods_supported")
      metadata.scopesSupported = try list("scopes_supported")
      metadata.tokenEndpointAuthMethodsSupported = try list("token_endpoint_auth_methods_supported")
      metadata.idTokenSigningAlgValuesSupported = try list("id_token_signing_alg_values_supported")
    } catch {
      return .failure(error)
    }
    return .success(metadata)
  }

  public init(issuer: String, document: Value = .object([:])) {
    self.issuer = issuer
    self.document = document
  }

  /// `grant_types_supported`, or the OpenID default when the document omits it.
  public var effectiveGrantTypes: [String] { grantTypesSupported ?? Self.defaultGrantTypes }

  /// `token_endpoint_auth_methods_supported`, or the OpenID default when the document omits it.
  public var effectiveTokenEndpointAuthMethods: [String] {
    tokenEndpointAuthMethodsSupported ?? Self.defaultTokenEndpointAuthMethods
  }

  /// Where an OP publishes its discovery document: the issuer without its trailing slash, then
  /// `/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4.1).
  public static func discoveryURL(issuer: String) -> String {
    var base = issuer
    while base.hasSuffix("/") { base.removeLast() }
    return base + "/.well-known/openid-configuration"
  }
}

/// Why a document is not a usable discovery document.
public enum ProviderMetadataProblem: Error, Sendable, Equatable, CustomStringConvertible {
  case notAnObject
  case noIssuer
  case wrongType(String, expected: String)
  /// An `http://` endpoint in the document of an `https://` issuer.
  case insecureEndpoint(String, url: String)

  public var description: String {
    switch self {
    case .notAnObject: "the discovery document is not a JSON object"
    case .noIssuer: "the discovery document has no `issuer`"
    case .wrongType(let name, let expected): "the discovery document's `\(name)` is not \(expected)"
    case .insecureEndpoint(let name, let url):
      "the discovery document of an https issuer gives `\(name)` as plain HTTP (\(url.prefix { $0 != "?" && $0 != "#" })): "
        + "codes, tokens and client secrets would travel in the clear (RFC 6749 §3.2, §10.9 require TLS), "
        + "so the tenant is not used"
    }
  }
}
