import AuthFlowCore
import Hummingbird

/// Applies faults before routing; `/__mock/` itself is never faulted.
struct FaultMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let tenant: MockTenant

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path = request.uri.path
    guard !path.hasPrefix("/__mock/"), let fault = tenant.transact({ $0.takeFault(for: path) }) else {
      return try await next(request, context)
    }
    switch fault.kind {
    case .delay:
      try? await Task.sleep(for: .milliseconds(fault.delayMilliseconds))
      return try await next(request, context)
    case .status:
      return OAuthError(
        status: HTTPResponse.Status(code: fault.status), code: "injected_fault",
        description: "Fault injected by /__mock/faults"
      ).response
    case .drop:
      return DroppedConnection.response
    case .malformed:
      return Response(
        status: HTTPResponse.Status(code: fault.status),
        headers: [.contentType: "application/json; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"access_token\": <html>malformed")))
    }
  }
}

/// The `drop` fault. A Hummingbird handler has no handle on its channel, so the connection is
/// dropped from the response body: the head goes out without a length (chunked), then the body
/// writer fails, and Hummingbird closes the channel without the terminating chunk. Clients see the
/// connection closed mid-response (AsyncHTTPClient: `remoteConnectionClosed`), never a complete
/// response.
enum DroppedConnection {
  struct Dropped: Error {}

  static var response: Response {
    Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8", .connection: "close"],
      body: ResponseBody { _ in throw Dropped() })
  }
}
