public import AuthFlowCore
import Tracing

/// A client span per exchange, in the OpenTelemetry HTTP semantic conventions, a child of the step
/// running it (the task's trace context), and that context injected into the request
/// (`traceparent` with an OpenTelemetry tracer), so that a self-hosted provider's own spans join
/// the trace. The URL is masked as the trace masks it (``SensitiveData/maskURL(_:)``, then the run's
/// secrets); no header or body is recorded. Without a tracer (the task has none) the spans are
/// no-ops: the request goes out unchanged.
public struct SpanTransport: HTTPTransport {
  public let base: any HTTPTransport
  /// Masks what the URL still holds that the run knows to be secret.
  public let scrub: @Sendable (String) -> String

  public init(wrapping base: any HTTPTransport, scrub: @escaping @Sendable (String) -> String) {
    self.base = base
    self.scrub = scrub
  }

  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    let tracer = InstrumentationSystem.legacyTracer
    if tracer is NoOpTracer { return try await base.send(request) }
    let span = tracer.startAnySpan(request.method.rawValue, ofKind: .client)
    defer { span.end() }
    var sent = request
    tracer.inject(span.context, into: &sent.headers, using: HeaderInjector())
    let url = scrub(SensitiveData.maskURL(request.url))
    span.attributes["http.request.method"] = request.method.rawValue
    span.attributes["url.full"] = url
    if let (host, port) = Self.server(of: request.url) {
      span.attributes["server.address"] = host
      if let port { span.attributes["server.port"] = port }
    }
    do {
      let response = try await base.send(sent)
      span.attributes["http.response.status_code"] = response.status
      if response.status >= 400 {
        span.attributes["error.type"] = String(response.status)
        span.setStatus(SpanStatus(code: .error))
      }
      return response
    } catch {
      span.attributes["error.type"] = error.kind.rawValue
      span.setStatus(SpanStatus(code: .error, message: scrub(error.message)))
      throw error
    }
  }

  /// The host and port of a URL (`https://t.example.com:8443/x` → `t.example.com`, 8443).
  static func server(of url: String) -> (String, Int?)? {
    guard let plain = PlainURL(url) else { return nil }
    return (String(plain.hostAsWritten), plain.port)
  }

  struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaderFields) {
      headers[key] = value
    }
  }
}
