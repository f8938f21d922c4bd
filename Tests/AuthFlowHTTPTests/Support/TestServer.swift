import AuthFlowHTTP
import Hummingbird

/// An in-process Hummingbird server on 127.0.0.1, port 0, for the length of one test.
enum TestServer {
  struct StartFailed: Error {}

  /// Starts a server with the routes `configure` adds, runs `body` with its base URL
  /// (`http://127.0.0.1:PORT`), and stops the server whatever happens.
  static func with<T: Sendable>(
    _ configure: (Router<BasicRequestContext>) -> Void,
    _ body: (String) async throws -> T
  ) async throws -> T {
    let router = Router()
    configure(router)
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
      router: router,
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        continuation.yield(channel.localAddress?.port ?? 0)
        continuation.finish()
      }
    )
    let server = Task { try await app.run() }
    defer { server.cancel() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else { throw StartFailed() }
    do {
      let result = try await body("http://127.0.0.1:\(port)")
      server.cancel()
      _ = await server.result
      return result
    } catch {
      server.cancel()
      _ = await server.result
      throw error
    }
  }
}

/// Runs `body` with a live transport and shuts it down afterwards.
func withLiveTransport<T: Sendable>(
  _ configuration: LiveTransport.Configuration = .init(),
  _ body: (LiveTransport) async throws -> T
) async throws -> T {
  let transport = LiveTransport(configuration: configuration)
  do {
    let result = try await body(transport)
    try await transport.shutdown()
    return result
  } catch {
    try? await transport.shutdown()
    throw error
  }
}

extension Response {
  /// A response with a text body and extra headers.
  static func text(
    _ text: String, status: Hummingbird.HTTPResponse.Status = .ok, contentType: String = "text/plain",
    headers: [(String, String)] = []
  ) -> Response {
    var fields = HTTPFields()
    fields[.contentType] = contentType
    for (name, value) in headers {
      if let name = HTTPFields.Element.Name(name) { fields.append(.init(name: name, value: value)) }
    }
    return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}

/// The client-side request and response (Hummingbird re-exports HTTPTypes' types of the same names).
typealias ClientRequest = AuthFlowHTTP.HTTPRequest
typealias ClientResponse = AuthFlowHTTP.HTTPResponse
