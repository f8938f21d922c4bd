import AuthFlowCore
import Foundation
import Hummingbird

/// The parameters of a request: the JSON or form body (docs/protocol.md §1: both are accepted), or the query.
struct RequestParameters: Sendable {
  var values: [String: Value]
  /// `client_id` and `client_secret` from an HTTP Basic `Authorization` header.
  var basicCredentials: (id: String, secret: String)?
  /// The end user's IP as the mock sees it (brute-force and rate-limit keys): `local` (the mock
  /// binds loopback), or `auth0-forwarded-for` once a confidential client has authenticated
  /// (`trustForwardedFor`). Headers anyone can set never pick the key, or rotating them would
  /// get round brute-force protection.
  var clientIP = "local"
  /// The `auth0-forwarded-for` header: the end user's IP as a server-side (confidential) client
  /// reports it.
  var forwardedFor: String?
  /// The parameters a form body or query gave a value more than once, in the order their repeat
  /// came (``FormEncoding/decodeChecked(_:)``): the client-authenticated endpoints and
  /// `/authorize` refuse them (RFC 6749 §3.1).
  var repeatedParameters: [String] = []
  /// The first of ``repeatedParameters``.
  var repeatedParameter: String? { repeatedParameters.first }

  init(values: [String: Value], basicCredentials: (id: String, secret: String)? = nil) {
    self.values = values
    self.basicCredentials = basicCredentials
  }

  /// A string parameter; numbers and booleans are given as text; empty strings count as absent.
  func string(_ name: String) -> String? {
    switch values[name] {
    case .string(let text)? where !text.isEmpty: return text
    case .int(let number)?: return String(number)
    case .double(let number)?: return String(number)
    case .bool(let flag)?: return flag ? "true" : "false"
    default: return nil
    }
  }

  /// An integer parameter: a JSON integer (or an integral number that fits), or decimal text as
  /// form bodies carry it. Nil when absent or not such a number (`has` tells the two apart); never
  /// traps on huge, fractional or non-finite input.
  func integer(_ name: String) -> Int? {
    switch values[name] {
    case .string(let text)?: return Int(text.trimmingWhitespace())
    case let value?: return value.intValue
    case nil: return nil
    }
  }

  /// A finite number parameter: a JSON number, or decimal text as form bodies carry it. Nil when
  /// absent, not a number, or not finite (`nan`, `inf`, `1e999`).
  func number(_ name: String) -> Double? {
    let number: Double?
    switch values[name] {
    case .string(let text)?: number = Double(text.trimmingWhitespace())
    case let value?: number = value.doubleValue
    case nil: number = nil
    }
    return number.flatMap { $0.isFinite ? $0 : nil }
  }

  /// True when the parameter is present, even empty (`?federated`).
  func has(_ name: String) -> Bool { values[name] != nil }

  /// The query of `request` (``repeatedParameters`` set as for a form body).
  static func query(of request: Request) -> RequestParameters {
    let query = FormEncoding.decodeChecked(request.uri.query ?? "")
    var parameters = RequestParameters(values: query.values.mapValues(Value.string))
    parameters.repeatedParameters = query.repeated
    return parameters
  }

  /// The body of `request`, read as its `Content-Type` says: JSON for `application/json` (or a
  /// `+json` type), a form for `application/x-www-form-urlencoded`. A body of any other type, or of
  /// none, is not read at all — the endpoint then answers for the parameters it lacks — as Auth0's
  /// body parsers do, and as RFC 6749 §4.1.3 asks of a token request ("using the
  /// application/x-www-form-urlencoded format"): a client that sends a form as `text/plain` or
  /// without the header must not pass here and fail against Auth0. Nil when a declared JSON or form
  /// body is not valid.
  static func body(of request: Request, context: some RequestContext) async -> RequestParameters? {
    guard let buffer = try? await request.body.collect(upTo: 1 << 20) else { return nil }
    let bytes = Data(buffer.readableBytesView)
    var parameters: RequestParameters
    switch BodyType(request.headers[.contentType]) {
    case .json:
      if bytes.isEmpty {
        parameters = RequestParameters(values: [:])
      } else {
        guard case .object(let members)? = try? Value(json: bytes) else { return nil }
        parameters = RequestParameters(values: members)
      }
    case .form:
      let form = FormEncoding.decodeChecked(String(decoding: bytes, as: UTF8.self))
      parameters = RequestParameters(values: form.values.mapValues(Value.string))
      parameters.repeatedParameters = form.repeated
    case .other:
      parameters = RequestParameters(values: [:])
    }
    parameters.basicCredentials = basic(request.headers[.authorization])
    parameters.clientIP = clientIP(of: request)
    parameters.forwardedFor = header("auth0-forwarded-for", of: request)
    return parameters
  }

  /// Takes `auth0-forwarded-for` as the end user's IP: Auth0 trusts it only from a client that
  /// authenticated with its secret (the "Trust Token Endpoint IP Header" setting).
  mutating func trustForwardedFor(client: ClientConfig) {
    guard client.clientSecret != nil, let forwardedFor else { return }
    clientIP = forwardedFor
  }

  /// See `clientIP`.
  static func clientIP(of request: Request) -> String { "local" }

  /// The first address of a forwarding header.
  private static func header(_ name: String, of request: Request) -> String? {
    guard let value = request.headers.first(where: { $0.name.canonicalName == name })?.value,
      let first = value.split(separator: ",").first.map({ String($0).trimmingWhitespace() }), !first.isEmpty
    else { return nil }
    return first
  }

  private static func basic(_ header: String?) -> (id: String, secret: String)? {
    guard let header, header.lowercased().hasPrefix("basic "),
      let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingWhitespace()),
      let text = String(data: data, encoding: .utf8)
    else { return nil }
    let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    let id = String(parts[0]).removingPercentEncoding ?? String(parts[0])
    let secret = String(parts[1]).removingPercentEncoding ?? String(parts[1])
    return (id, secret)
  }
}

/// How ``RequestParameters/body(of:context:)`` reads a body, from its media type (parameters such
/// as `charset` and letter case aside).
enum BodyType: Equatable {
  case json, form, other

  init(_ contentType: String?) {
    let mediaType =
      contentType?.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    switch mediaType {
    case "application/json": self = .json
    case "application/x-www-form-urlencoded": self = .form
    case _ where mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"): self = .json
    default: self = .other
    }
  }
}
