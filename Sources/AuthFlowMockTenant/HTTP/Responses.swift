import AuthFlowCore
import Foundation
import Hummingbird

/// Response builders shared by the endpoints.
enum Responses {
  static func json(_ value: Value, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
    var fields = headers
    fields[.contentType] = "application/json; charset=utf-8"
    fields[.cacheControl] = "no-store"
    // RFC 6749 §5.1: token responses are not cached, by HTTP/1.0 caches either.
    RateLimitMiddleware.set("Pragma", "no-cache", on: &fields)
    return Response(
      status: status, headers: fields,
      body: ResponseBody(byteBuffer: ByteBuffer(string: value.jsonText(revealSecrets: true))))
  }

  /// A page. `frameAncestors` is the CSP `frame-ancestors` source: `'none'` (with
  /// `X-Frame-Options: DENY`) for every page but a `web_message` response, which its own origin
  /// frames.
  static func html(_ text: String, status: HTTPResponse.Status = .ok, frameAncestors: String = "'none'") -> Response {
    var fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
    PageSecurityHeaders.apply(frameAncestors: frameAncestors, to: &fields)
    return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: "text/plain; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  static func redirect(_ location: String, cookies: [Cookie] = []) -> Response {
    var response = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    for cookie in cookies { response.setCookie(cookie) }
    return response
  }

  static func empty(status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status)
  }
}
