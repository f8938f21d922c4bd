import Hummingbird
import Logging
import NIOCore

/// The mock's router answered in-process, without a socket: what `authflow bench` measures its
/// in-process rows with, beside the loopback rows (docs/benchmarks.md).
///
/// Every request goes through the same router, middleware and handlers as over HTTP, on the same
/// tenant; what is skipped is the HTTP/1 codec and the sockets on both sides (and the server's
/// limits on header size, which the codec enforces). The loopback server stays what a browser or
/// SDK points at.
public struct MockInProcessClient: Sendable {
  /// A response as the in-process client returns it.
  public struct Response: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
  }

  let responder: RouterResponder<BasicRequestContext>
  /// The `Host` the requests are addressed to (`127.0.0.1:PORT`), as a loopback client sends it.
  let authority: String
  /// The server's listening channel, standing in as every in-process request's channel.
  let channel: any Channel
  let logger: Logger

  init(responder: RouterResponder<BasicRequestContext>, authority: String, channel: any Channel, logger: Logger) {
    self.responder = responder
    self.authority = authority
    self.channel = channel
    self.logger = logger
  }

  /// Sends one request: `target` is the path and query (`/authorize?…`). The body is capped by
  /// the router's `RequestSizeMiddleware`, as over HTTP (`Content-Length` is set from it).
  public func respond(
    method: String, target: String, headers: [(name: String, value: String)], body: [UInt8]
  ) async -> Response {
    var fields = HTTPFields()
    for (name, value) in headers {
      guard let field = HTTPFields.Element.Name(name) else { continue }
      fields.append(HTTPFields.Element(name: field, value: value))
    }
    if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
      fields[.contentLength] = String(body.count)
    }
    let head = HTTPRequest(
      method: HTTPRequest.Method(method) ?? .get, scheme: "http", authority: authority, path: target,
      headerFields: fields)
    let request = Hummingbird.Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
    let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
    let response: Hummingbird.Response
    do {
      response = try await responder.respond(to: request, context: context)
    } catch {
      // As the server answers a handler's unexpected error.
      response = Hummingbird.Response(status: .internalServerError)
    }
    let collector = BodyCollector()
    do {
      try await response.body.write(collector)
    } catch {
      return Response(status: 500, headers: [], body: [])
    }
    return Response(
      status: response.status.code, headers: response.headers.map { (name: $0.name.rawName, value: $0.value) },
      body: collector.bytes)
  }
}

/// Collects a response body (a class: the body consumes the writer it is given).
private final class BodyCollector: ResponseBodyWriter {
  var bytes: [UInt8] = []

  func write(_ buffer: ByteBuffer) async throws {
    bytes.append(contentsOf: buffer.readableBytesView)
  }

  func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
