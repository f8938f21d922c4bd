import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE

/// The `/authorize` request of one Web Auth transaction, built as Auth0.swift builds it
/// (docs/protocol.md §2.1): defaults first, then the user's `parameters`, then `openid` re-added to
/// `scope`. Holds the secrets (state, nonce, PKCE verifier) the callback is checked against.
struct AuthorizeRequest: Sendable {
  /// The default scope of Auth0.swift v2.
  static let defaultScope = "openid profile email"

  var parameters: URLParameters
  /// The parameters inside the request object, when the request is one (else nil).
  var objectParameters: URLParameters?
  /// Whether the parameters travel in a request object (``Options/requestObject``).
  var sentInRequestObject = false
  var state: String
  var nonce: String?
  var codeVerifier: String?
  var redirectURI: String
  var responseType: String

  /// The query parameters, in Auth0.swift's order.
  struct Options: Sendable {
    var clientID: String
    var redirectURI: String
    var responseType = "code"
    var scope: String?
    var audience: String?
    var connection: String?
    var connectionScope: String?
    var organization: String?
    var invitation: String?
    var maxAge: Int?
    var telemetry: String?
    /// Extra parameters (`prompt`, `screen_hint`, …) in order; they override the defaults.
    var extra: [(String, String)] = []
    /// Default parameters not to send (`parameters: { nonce: null }`): a request without a nonce,
    /// without PKCE, … for the scenarios that test how a provider answers one.
    var removed: [String] = []
    /// Send the parameters as an unsigned request object (`request`, alg `none`, OpenID Connect
    /// Core §6.1), with `response_type`, `client_id`, `scope` and `redirect_uri` repeated outside.
    var requestObject = false
    /// With ``requestObject``: values sent outside the object instead of their value inside.
    var outside: [(String, String)] = []
  }

  /// What was asked for: the request object's parameters when there is one, else the query's.
  var requested: URLParameters { objectParameters ?? parameters }

  /// The parameters repeated outside a request object (OpenID Connect Core §6.1: those OAuth 2.0
  /// requires in the request itself).
  static let outsideRequestObject = ["response_type", "client_id", "scope", "redirect_uri"]

  init(_ options: Options) {
    let state = RandomToken.make(bytes: 32)
    let nonce = RandomToken.make(bytes: 32)
    let usesCode = options.responseType.split(separator: " ").contains("code")
    let verifier = usesCode ? PKCE.generateVerifier() : nil
    var items: [(String, String)] = [
      ("client_id", options.clientID), ("response_type", options.responseType),
      ("redirect_uri", options.redirectURI), ("state", state), ("nonce", nonce),
      ("scope", options.scope ?? Self.defaultScope),
    ]
    if let verifier {
      items += [("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "S256")]
    }
    let optional: [(String, String?)] = [
      ("audience", options.audience), ("connection", options.connection),
      ("connection_scope", options.connectionScope), ("organization", options.organization),
      ("invitation", options.invitation), ("max_age", options.maxAge.map(String.init)),
      ("auth0Client", options.telemetry),
    ]
    for case (let name, let value?) in optional { items.append((name, value)) }
    var parameters = URLParameters(items)
    for (name, value) in options.extra { parameters[name] = value }
    if !options.removed.contains("scope") {
      parameters["scope"] = Self.includingOpenID(parameters["scope"] ?? Self.defaultScope)
    }
    for name in options.removed { parameters[name] = nil }
    // No challenge, no method: `code_challenge: null` sends a request without PKCE, unless the
    // step gives a method of its own (a request with a method and no challenge, on purpose).
    if options.removed.contains("code_challenge"), !options.extra.contains(where: { $0.0 == "code_challenge_method" }) {
      parameters["code_challenge_method"] = nil
    }
    self.state = parameters["state"] ?? state
    self.sentInRequestObject = options.requestObject
    if options.requestObject {
      // Everything in the object; what OAuth 2.0 requires, outside too. State and nonce only inside.
      var outside = URLParameters(Self.outsideRequestObject.compactMap { name in parameters[name].map { (name, $0) } })
      for (name, value) in options.outside { outside[name] = value }
      outside.append("request", Self.unsignedRequestObject(parameters))
      self.parameters = outside
      self.objectParameters = parameters
    } else {
      self.parameters = parameters
    }
    self.nonce = parameters["nonce"]
    self.codeVerifier = options.removed.contains("code_challenge") ? nil : verifier
    self.redirectURI = parameters["redirect_uri"] ?? options.redirectURI
    self.responseType = parameters["response_type"] ?? options.responseType
  }

  /// An unsigned request object (`alg: none`, OpenID Connect Core §6.1) holding `parameters`:
  /// each a string, `max_age` a number, `claims` its JSON object.
  static func unsignedRequestObject(_ parameters: URLParameters) -> String {
    var claims: [String: Value] = [:]
    for pair in parameters {
      switch pair.name {
      case "max_age": claims[pair.name] = Int(pair.value).map(Value.int) ?? .string(pair.value)
      case "claims": claims[pair.name] = (try? Value(jsonText: pair.value)) ?? .string(pair.value)
      default: claims[pair.name] = .string(pair.value)
      }
    }
    let header = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
    let payload = Base64URL.encode(Array(Value.object(claims).jsonText(revealSecrets: true).utf8))
    return header + "." + payload + "."
  }

  /// `openid` prepended when the scope lacks it (Auth0.swift `includeRequiredScope`).
  static func includingOpenID(_ scope: String) -> String {
    let items = scope.split(separator: " ").map(String.init)
    return items.contains("openid") ? scope : (["openid"] + items).joined(separator: " ")
  }

  /// The request at the tenant's authorization endpoint (`/authorize`, or the discovered one).
  func url(endpoint: String) -> String {
    endpoint + (endpoint.contains("?") ? "&" : "?") + parameters.queryString()
  }

  /// The `organization` and `invitation` of an invitation link (docs/protocol.md §8); nil when either
  /// is missing. `organization_name` is ignored, as the SDK ignores it.
  static func invitation(from url: String) -> (organization: String, invitation: String)? {
    let query = URLParameters.query(of: url)
    guard let organization = query["organization"], !organization.isEmpty, let invitation = query["invitation"],
      !invitation.isEmpty
    else { return nil }
    return (organization, invitation)
  }

  /// The `Auth0-Client` value of Auth0.swift 2.x (docs/protocol.md §11): base64url JSON, no padding.
  static let telemetry = Base64URL.encode(
    Array(#"{"name":"Auth0.swift","version":"2.10.0","env":{"swift":"6.x","iOS":"17.0"}}"#.utf8))
}
