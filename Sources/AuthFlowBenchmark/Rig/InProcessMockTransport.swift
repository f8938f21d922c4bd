import AuthFlowHTTP
import AuthFlowMockTenant

/// A transport that hands requests for the embedded mock to its router in-process
/// (``MockInProcessClient``) and sends everything else through `fallback`: the transport of the
/// bench's in-process rows, an explicit choice beside the loopback rows (docs/benchmarks.md).
///
/// The requests and responses are the same values the live client sends and returns; what is
/// skipped is HTTP/1 on a socket. Redirects, cookies, secrets and every check stay in the browser,
/// the interpreter and the mock, which run unchanged.
struct InProcessMockTransport: HTTPTransport {
  let client: MockInProcessClient
  /// The mock's base URL (`http://127.0.0.1:PORT/`): requests under it are answered in-process.
  let baseURL: String
  let fallback: any HTTPTransport

  func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    guard request.url.hasPrefix(baseURL) else { return try await fallback.send(request) }
    // The path and query, as a client sends them: the fragment stays with the client.
    let rest = request.url.dropFirst(baseURL.count)
    let target = "/" + (rest.firstIndex(of: "#").map { rest[..<$0] } ?? rest)
    let activity = RequestActivity.current
    let token = activity?.begin(request.url)
    defer { if let token { activity?.end(token) } }
    let answer = await client.respond(
      method: request.method.rawValue, target: String(target),
      headers: request.headers.map { (name: $0.name, value: $0.value) }, body: request.body)
    var headers = HTTPHeaderFields()
    for field in answer.headers { headers.add(name: field.name, value: field.value) }
    return HTTPResponse(status: answer.status, headers: headers, body: answer.body, url: request.url)
  }
}
