import AuthFlowCore
import Hummingbird

/// Refuses request bodies past the mock's limit with **413** and `Connection: close` (the
/// connection is then closed by ``ConnectionLimitHandler``, so the rest of the body is not read).
/// A declared `Content-Length` is checked before reading; a chunked body is read up to the limit.
struct RequestSizeMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let maxBodySize: Int

  static func tooLarge(limit: Int) -> Response {
    var response = OAuthError(
      status: .init(code: 413, reasonPhrase: "Content Too Large"), code: "request_too_large",
      description: "The request body is larger than \(limit) bytes."
    ).response
    response.headers[.connection] = "close"
    return response
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if let declared = request.headers[.contentLength].flatMap({ Int($0) }) {
      guard declared <= maxBodySize else { return Self.tooLarge(limit: maxBodySize) }
      return try await next(request, context)
    }
    guard request.headers[.transferEncoding] != nil else { return try await next(request, context) }
    var request = request
    do {
      _ = try await request.collectBody(upTo: maxBodySize)
    } catch {
      return Self.tooLarge(limit: maxBodySize)
    }
    return try await next(request, context)
  }
}
