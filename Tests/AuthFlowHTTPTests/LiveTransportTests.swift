import AuthFlowCore
import AuthFlowHTTP
import Hummingbird
import Testing

@Suite struct LiveTransportTests {
  static func echo(_ router: Router<BasicRequestContext>) {
    router.on("/echo", method: .get) { request, _ in try await echoResponse(request) }
    router.on("/echo", method: .post) { request, _ in try await echoResponse(request) }
  }

  static func echoResponse(_ request: Request) async throws -> Response {
    let body = request.body
    let bytes = try await body.collect(upTo: 1 << 20)
    let headers = request.headers.map { "\"\($0.name.canonicalName)\":\"\($0.value)\"" }.joined(separator: ",")
    let json = """
      {"method":"\(request.method.rawValue)","path":"\(request.uri.path)","query":"\(request.uri.query ?? "")",\
      "body":\(Value.string(String(buffer: bytes)).jsonText()),"headers":{\(headers)}}
      """
    return .text(json, contentType: "application/json", headers: [("X-Echo", "yes")])
  }

  @Test func getRoundTripCarriesHeadersAndQuery() async throws {
    try await TestServer.with(Self.echo) { base in
      try await withLiveTransport { transport in
        let response = try await transport.send(
          ClientRequest(url: base + "/echo?a=1&b=x%2By", headers: ["X-Custom": "hello", "Accept": "application/json"]))
        #expect(response.status == 200)
        #expect(response.headers["x-echo"] == "yes")
        #expect(response.url == base + "/echo?a=1&b=x%2By")
        let json = try #require(response.jsonValue)
        #expect(json.lookup(path: ["method"]) == "GET")
        #expect(json.lookup(path: ["query"]) == "a=1&b=x%2By")
        #expect(json.lookup(path: ["headers", "x-custom"]) == "hello")
      }
    }
  }

  @Test func postSendsJSONAndFormBodies() async throws {
    try await TestServer.with(Self.echo) { base in
      try await withLiveTransport { transport in
        let json = try await transport.send(.json(url: base + "/echo", body: ["grant_type": "password", "n": 1]))
        #expect(json.jsonValue?.lookup(path: ["method"]) == "POST")
        #expect(json.jsonValue?.lookup(path: ["body"]) == #"{"grant_type":"password","n":1}"#)
        #expect(json.jsonValue?.lookup(path: ["headers", "content-type"]) == "application/json")

        let form = try await transport.send(.form(url: base + "/echo", fields: ["q": "a b+c&d"]))
        #expect(form.jsonValue?.lookup(path: ["body"]) == "q=a+b%2Bc%26d")
      }
    }
  }

  @Test func refusedConnectionIsAnEnvironmentError() async throws {
    try await withLiveTransport { transport in
      let error = await #expect(throws: TransportError.self) {
        try await transport.send(ClientRequest(url: "http://127.0.0.1:1/nothing"))
      }
      #expect(error?.kind == .connectionRefused)
      #expect(error?.message == "connection refused by 127.0.0.1:1")
    }
  }

  @Test func slowResponseTimesOut() async throws {
    try await TestServer.with({ router in
      router.get("/slow") { _, _ in
        try await Task.sleep(for: .milliseconds(800))
        return "late"
      }
    }) { base in
      try await withLiveTransport { transport in
        let error = await #expect(throws: TransportError.self) {
          try await transport.send(ClientRequest(url: base + "/slow", timeout: .milliseconds(100)))
        }
        #expect(error?.kind == .timeout)
      }
    }
  }

  @Test func invalidURLIsRejectedBeforeSending() async throws {
    try await withLiveTransport { transport in
      let error = await #expect(throws: TransportError.self) {
        try await transport.send(ClientRequest(url: "com.example.app://callback?code=1"))
      }
      #expect(error?.kind == .invalidURL)
    }
  }

  /// A body past the limit, announced (`Content-Length`) or chunked (counted as it arrives), and a
  /// chunked one under it.
  static func sizedBodies(_ router: Router<BasicRequestContext>) {
    @Sendable func chunked(_ chunks: [ByteBuffer]) -> Response {
      Response(
        status: .ok,
        body: ResponseBody { writer in
          for chunk in chunks { try await writer.write(chunk) }
          try await writer.finish(nil)
        })
    }
    router.get("/big") { _, _ in String(repeating: "x", count: 4096) }
    router.get("/stream") { _, _ in
      chunked(Array(repeating: ByteBuffer(repeating: UInt8(ascii: "x"), count: 512), count: 8))
    }
    router.get("/small") { _, _ in chunked([ByteBuffer(string: "fits")]) }
  }

  /// Runs `body` with a transport limited to 1 KiB bodies, against ``sizedBodies(_:)``.
  static func withOneKiBLimit(_ body: @escaping (any HTTPTransport, String) async throws -> Void) async throws {
    try await TestServer.with(sizedBodies) { base in
      var configuration = LiveTransport.Configuration()
      configuration.maxBodySize = 1024
      try await withLiveTransport(configuration) { transport in try await body(transport, base) }
    }
  }

  @Test(arguments: ["/big", "/stream"]) func anOversizedBodyFails(path: String) async throws {
    try await Self.withOneKiBLimit { transport, base in
      let error = await #expect(throws: TransportError.self) {
        try await transport.send(ClientRequest(url: base + path))
      }
      #expect(error?.kind == .bodyTooLarge)
    }
  }

  @Test func aChunkedBodyUnderTheLimitIsRead() async throws {
    try await Self.withOneKiBLimit { transport, base in
      let small = try await transport.send(ClientRequest(url: base + "/small"))
      #expect(small.bodyText == "fits")
    }
  }

  /// A `HEAD` answer announces the body a `GET` would get: its length is no reason to fail.
  @Test func aHeadAnswerAnnouncingALargeBodyIsFine() async throws {
    try await TestServer.with({ router in
      router.head("/big") { _, _ in
        Response(status: .ok, headers: [.contentLength: "1000000"], body: .init())
      }
    }) { base in
      var configuration = LiveTransport.Configuration()
      configuration.maxBodySize = 1024
      try await withLiveTransport(configuration) { transport in
        let response = try await transport.send(ClientRequest(method: .head, url: base + "/big"))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
      }
    }
  }
}
