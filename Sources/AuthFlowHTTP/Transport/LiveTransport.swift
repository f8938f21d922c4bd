import AsyncHTTPClient
import NIOCore

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
        connect: TimeAmount(configuration.connectTimeout), read: TimeAmount(configuration.readTimeout)),
      decompression: .enabled(limit: .size(configuration.maxBodySize))
    )
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

  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    guard let scheme = URLParts.scheme(of: request.url), scheme == "http" || scheme == "https",
      URLParts(request.url) != nil
    else { throw .invalidURL(request.url) }

    var outgoing = HTTPClientRequest(url: request.url)
    outgoing.method = .init(rawValue: request.method.rawValue)
    for field in request.headers {
      outgoing.headers.add(name: field.name, value: field.value)
    }
    if !request.body.isEmpty {
      outgoing.body = .bytes(ByteBuffer(bytes: request.body))
    }
    let timeout = request.timeout ?? configuration.requestTimeout
    let activity = RequestActivity.current
    let token = activity?.begin(request.url)
    defer { if let token { activity?.end(token) } }
    let client = self.client
    let prepared = outgoing
    let limit = configuration.maxBodySize
    do {
      // `execute(_:timeout:)` bounds only the response head: the body gets the same deadline.
      return try await withExchangeDeadline(timeout, url: request.url) {
        let response = try await client.execute(prepared, timeout: TimeAmount(timeout))
        let body = try await response.body.collect(upTo: limit)
        var headers = HTTPHeaderFields()
        for (name, value) in response.headers {
          headers.add(name: name, value: value)
        }
        return HTTPResponse(
          status: Int(response.status.code), headers: headers, body: Array(body.readableBytesView), url: request.url)
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
  init(_ duration: Duration) {
    // Saturating: a duration past Int64 nanoseconds (about 292 years) waits "forever" instead of trapping.
    let (seconds, attoseconds) = duration.components
    let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else {
      self = .nanoseconds(seconds < 0 ? 0 : .max)
      return
    }
    let (total, overflowSum) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
    self = .nanoseconds(overflowSum ? .max : max(0, total))
  }
}
