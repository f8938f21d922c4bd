public import Hummingbird

/// An in-process Hummingbird server on 127.0.0.1, port 0, for the length of one test.
public enum LoopbackServer {
  public struct StartFailed: Error {}

  /// Starts a server with the routes `configure` adds, runs `body` with its base URL
  /// (`http://127.0.0.1:PORT`), and stops the server whatever happens.
  public static func with<T: Sendable>(
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
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
      server.cancel()
      throw StartFailed()
    }
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

extension Response {
  /// A JSON response from already-encoded text.
  public static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    var fields = HTTPFields()
    fields[.contentType] = "application/json"
    return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
