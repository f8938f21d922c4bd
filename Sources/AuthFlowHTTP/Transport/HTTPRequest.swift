public import AuthFlowCore
public import Foundation

/// One HTTP request, as a value: what the interpreter builds and a transport sends.
public struct HTTPRequest: Sendable, Hashable {
  public var method: HTTPMethod
  /// The absolute URL.
  public var url: String
  public var headers: HTTPHeaderFields
  public var body: [UInt8]
  /// Overrides the transport's default deadline for the whole exchange.
  public var timeout: Duration?

  public init(
    method: HTTPMethod = .get, url: String, headers: HTTPHeaderFields = [:], body: [UInt8] = [],
    timeout: Duration? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  public init(
    method: HTTPMethod = .get, url: URL, headers: HTTPHeaderFields = [:], body: [UInt8] = [],
    timeout: Duration? = nil
  ) {
    self.init(method: method, url: url.absoluteString, headers: headers, body: body, timeout: timeout)
  }

  /// A request with an `application/x-www-form-urlencoded` body.
  public static func form(
    _ method: HTTPMethod = .post, url: String, fields: URLParameters, headers: HTTPHeaderFields = [:]
  ) -> HTTPRequest {
    var request = HTTPRequest(method: method, url: url, headers: headers, body: Array(fields.formEncoded().utf8))
    request.headers["Content-Type"] = "application/x-www-form-urlencoded"
    return request
  }

  /// A request with a JSON body, serialized from a value (secrets revealed: this goes on the wire).
  public static func json(
    _ method: HTTPMethod = .post, url: String, body: Value, headers: HTTPHeaderFields = [:]
  ) -> HTTPRequest {
    var request = HTTPRequest(
      method: method, url: url, headers: headers, body: Array(body.jsonText(revealSecrets: true).utf8))
    request.headers["Content-Type"] = "application/json"
    return request
  }

  /// The body decoded as UTF-8 (invalid sequences replaced).
  public var bodyText: String {
    String(decoding: body, as: UTF8.self)
  }
}
