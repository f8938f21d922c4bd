import AsyncHTTPClient
import AuthFlowCore
import NIOCore
import NIOHTTP1

/// The transport over the network: one pooled AsyncHTTPClient for the whole run (keep-alive and
/// connection reuse), redirects disabled, responses decompressed, bodies collected up to a cap.
///
/// Create one per run and call `shutdown()` when the run ends.
public final class LiveTransport: HTTPTransport {
  /// Limits and timeouts (docs/running.md, "Transport limits").
  public struct Configuration: Sendable {
    /// Time to establish a connection (TCP and TLS).
    public var connectTimeout: Duration = .seconds(5)
    /// Longest silence while reading a response.
    public var readTimeout: Duration = .seconds(30)
    /// Deadline for a whole exchange — connecting, sending, the response head **and its body** —
    /// unless the request sets its own `timeout`.
    public var requestTimeout: Duration = .seconds(30)
    /// Responses with a larger (decompressed) body fail with `.bodyTooLarge`.
    public var maxBodySize: Int = 10 * 1024 * 1024
    /// Pooled HTTP/1.1 connections per host; concurrent flows queue past it.
    public var maxConnectionsPerHost: Int = 32
    /// Skips certificate verification (self-signed local providers only).
    public var allowInsecureTLS: Bool = false

    public init() {}

    /// The accepted range of `connectTimeout` (flags and profiles are checked against it).
    public static let connectTimeoutRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(300)
    /// The accepted range of `requestTimeout`.
    public static let requestTimeoutRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(3600)
    /// The accepted range of `maxBodySize`, in bytes (1 KiB to 1 GiB).
    public static let maxBodySizeRange: ClosedRange<Int> = 1024...(1 << 30)
  }

  public let configuration: Configuration
  private let client: HTTPClient

  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    var clientConfiguration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: .init(
        connect: TimeAmount(saturating: configuration.connectTimeout),
        read: TimeAmount(saturating: configuration.readTimeout)),
      decompression: .enabled(limit: .size(configuration.maxBodySize))
    )
    // No spans of its own: it would record the URL unmasked (a token in a query) and inject the
    // context of a span the run does not know. `SpanTransport` makes the exchange's span.
    clientConfiguration.tracing.tracer = nil
    if configuration.allowInsecureTLS {
      var tls = clientConfiguration.tlsConfiguration ?? .makeClientConfiguration()
      tls.certificateVerification = .none
      clientConfiguration.tlsConfiguration = tls
    }
    clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
      configuration.maxConnectionsPerHost
    // Let go of idle connections before servers do (the mock after 10 s, many tenants after 5–60 s),
    // so a request is not sent down a connection the server is closing.
    clientConfiguration.connectionPool.idleTimeout = .seconds(4)
    // Fail fast: a refused connection is an environment failure to report, not to wait out.
    clientConfiguration.connectionPool.retryConnectionEstablishment = false
    self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
  }

  /// Sends the request through AsyncHTTPClient's delegate API, with one deadline for the whole
  /// exchange — connecting, sending, the response head and its body — enforced by the client on
  /// the request's event loop. The async API was not used: it bounds only the response head, and
  /// it starts a task on the shared pool for every request, one of the hand-offs between threads
  /// this transport avoids (docs/benchmarks.md, "One thread per exchange").
  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    guard let scheme = URLParts.scheme(of: request.url), scheme == "http" || scheme == "https",
      URLParts(request.url) != nil
    else { throw .invalidURL(request.url) }
    let timeout = request.timeout ?? configuration.requestTimeout
    let limit = configuration.maxBodySize
    let activity = RequestActivity.current
    let token = activity?.begin(request.url)
    defer { if let token { activity?.end(token) } }
    do {
      var headers = HTTPHeaders()
      headers.reserveCapacity(request.headers.count)
      for field in request.headers {
        headers.add(name: field.name, value: field.value)
      }
      let outgoing = try HTTPClient.Request(
        url: request.url, method: .init(rawValue: request.method.rawValue), headers: headers,
        body: request.body.isEmpty ? nil : .bytes(request.body))
      let task = client.execute(
        request: outgoing,
        delegate: ResponseCollector(url: request.url, limit: limit, hasBody: request.method != .head),
        eventLoop: .indifferent,
        deadline: .now() + TimeAmount(saturating: timeout))
      return try await withTaskCancellationHandler {
        try await task.futureResult.get()
      } onCancel: {
        task.cancel()
      }
    } catch {
      throw TransportErrorMapping.map(
        error, url: request.url, bodyLimit: limit, timeouts: (connect: configuration.connectTimeout, exchange: timeout))
    }
  }

  /// Closes every pooled connection. Call once, when the run is over; later sends fail.
  public func shutdown() async throws(TransportError) {
    do {
      try await client.shutdown()
    } catch {
      throw TransportError(kind: .other, message: "shutting down the HTTP client failed: \(error)")
    }
  }
}

extension TimeAmount {
  /// The duration, saturating: past Int64 nanoseconds (about 292 years) it waits "forever" instead
  /// of trapping (NIO's own `init(_:)` traps); a negative duration is none.
  init(saturating duration: Duration) {
    self = .nanoseconds(duration.saturatingNanoseconds)
  }
}

/// Collects one response: its head, and its body up to the transport's limit (a larger body, or a
/// `Content-Length` announcing one, fails the exchange with `.bodyTooLarge`). AsyncHTTPClient
/// calls it on the request's event loop only, one call at a time.
private final class ResponseCollector: HTTPClientResponseDelegate, @unchecked Sendable {
  typealias Response = HTTPResponse

  private let url: String
  private let limit: Int
  /// False for a `HEAD` request, whose `Content-Length` describes a body it does not get.
  private let hasBody: Bool
  private var status = 0
  private var headers = HTTPHeaderFields()
  private var body: [UInt8] = []

  init(url: String, limit: Int, hasBody: Bool) {
    self.url = url
    self.limit = limit
    self.hasBody = hasBody
  }

  func didReceiveHead(task: HTTPClient.Task<HTTPResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
    if hasBody, let announced = head.headers.first(name: "content-length").flatMap({ Int($0) }), announced > limit {
      return task.eventLoop.makeFailedFuture(TransportError.bodyTooLarge(url, limit: limit))
    }
    status = Int(head.status.code)
    for (name, value) in head.headers {
      headers.add(name: name, value: value)
    }
    return task.eventLoop.makeSucceededVoidFuture()
  }

  func didReceiveBodyPart(task: HTTPClient.Task<HTTPResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
    guard buffer.readableBytes <= limit - body.count else {
      return task.eventLoop.makeFailedFuture(TransportError.bodyTooLarge(url, limit: limit))
    }
    body.append(contentsOf: buffer.readableBytesView)
    return task.eventLoop.makeSucceededVoidFuture()
  }

  func didFinishRequest(task: HTTPClient.Task<HTTPResponse>) throws -> HTTPResponse {
    HTTPResponse(status: status, headers: headers, body: body, url: url)
  }
}
