import AuthFlowHTTP
import AuthFlowTestSupport
import Hummingbird

/// The shared loopback server (`AuthFlowTestSupport.LoopbackServer`).
typealias TestServer = LoopbackServer

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
