import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRun
import Foundation
import InMemoryTracing
import Synchronization
import Testing
import Tracing

/// A run with a tracer: a span per scenario run, a child per step, a child of its step per HTTP
/// exchange (OpenTelemetry's HTTP client conventions), the trace context injected into each
/// request the tenant receives — and no token the tenant issued in any span. The tracer is
/// swift-distributed-tracing's own in-memory one (the exporter is swift-otel's, later).
@Suite struct RunTracingTests {
  static let scenario = """
    scenario: Traced sign-in
    client: native
    vars:
      user: ${{ tenant.users.alice }}
    steps:
      - id: login
        web_auth:
          scope: openid offline_access
          login: { email: "${{ vars.user.email }}", password: "${{ vars.user.password }}" }
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
      - id: userinfo
        needs: [login]
        http:
          url: "userinfo?echo=${{ steps.login.access_token }}"
          headers: { Authorization: "Bearer ${{ steps.login.access_token }}" }
        expect: { status: 200 }
      - id: refused
        needs: [login]
        http: { url: "userinfo" }
        expect: { status: 200 }
    """

  /// What the tenant received (the injected headers) and answered (the issued tokens).
  final class Wire: Sendable {
    let requests = Mutex<[HTTPRequest]>([])
    let bodies = Mutex<[String]>([])
  }

  struct Tap: HTTPTransport {
    let base: any HTTPTransport
    let wire: Wire

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
      wire.requests.withLock { $0.append(request) }
      let response = try await base.send(request)
      wire.bodies.withLock { $0.append(String(decoding: response.body, as: UTF8.self)) }
      return response
    }
  }

  /// An attribute's text (a string as it is, anything else as Swift prints it).
  static func text(_ attribute: (any SpanAttributeConvertible)?) -> String? {
    guard let attribute else { return nil }
    if case .string(let text) = attribute.toSpanAttribute() { return text }
    return String(describing: attribute.toSpanAttribute())
  }

  static func text(_ attribute: SpanAttribute) -> String {
    if case .string(let text) = attribute { return text }
    return String(describing: attribute)
  }

  @Test func scenarioStepsAndExchangesAreNestedSpansAndTheContextReachesTheTenant() async throws {
    let tracer = InMemoryTracer()
    let wire = Wire()
    let run = try await SessionHarness.run(scenarios: [("traced.yaml", Self.scenario)], reporters: []) {
      $0.tracer = tracer
      $0.transportLayer = { Tap(base: $0, wire: wire) }
    }
    #expect(run.outcome.exitCode == .failure, "the step `refused` fails: \(run.console)")
    let spans = tracer.finishedSpans
    let roots = spans.filter { $0.operationName == "Traced sign-in" }
    let root = try #require(roots.first)
    #expect(roots.count == 1)
    #expect(root.parentSpanID == nil)
    #expect(Self.text(root.attributes["authflow.tenant"]) == "mock")
    #expect(root.status?.code == .error, "a failed run is the span's error")

    let steps = spans.filter { $0.operationName.hasPrefix("step ") }
    #expect(Set(steps.map(\.operationName)) == ["step login", "step renew", "step userinfo", "step refused"])
    #expect(steps.allSatisfy { $0.parentSpanID == root.spanID && $0.traceID == root.traceID })
    #expect(steps.first { $0.operationName == "step refused" }?.status?.code == .error)
    #expect(steps.first { $0.operationName == "step renew" }?.status == nil)

    let exchanges = spans.filter { $0.kind == .client }
    let stepIDs = Set(steps.map(\.spanID))
    #expect(exchanges.count >= 6, "\(exchanges.map(\.operationName))")
    #expect(exchanges.allSatisfy { stepIDs.contains($0.parentSpanID ?? "") })
    for step in steps {
      #expect(exchanges.contains { $0.parentSpanID == step.spanID }, "\(step.operationName) has no exchange")
    }
    let post = try #require(exchanges.first { $0.operationName == "POST" })
    #expect(Self.text(post.attributes["http.request.method"]) == "POST")
    #expect(Self.text(post.attributes["server.address"]) == "127.0.0.1")
    #expect(post.attributes["http.response.status_code"] != nil)

    // Every request the tenant received carries the context of its own exchange's span.
    let requests = wire.requests.withLock { $0 }
    #expect(requests.count == exchanges.count)
    let exchangeIDs = Set(exchanges.map(\.spanID))
    for request in requests {
      #expect(request.headers[InMemoryTracer.traceIDKey] == root.traceID)
      #expect(exchangeIDs.contains(request.headers[InMemoryTracer.spanIDKey] ?? ""))
    }

    // No issued token in a span: not in `url.full` (the access token was in the query), nor in a
    // status message.
    var issued: Set<String> = []
    for body in wire.bodies.withLock({ $0 }) {
      guard let object = (try? Value(json: Data(body.utf8)))?.objectValue else { continue }
      for name in ["access_token", "id_token", "refresh_token"] {
        if let token = object[name]?.stringValue { issued.insert(token) }
      }
    }
    #expect(issued.count >= 3)
    let texts = spans.flatMap { span in
      var texts = [span.operationName, span.status?.message ?? ""]
      span.attributes.forEach { _, attribute in texts.append(Self.text(attribute)) }
      return texts
    }
    let leaking = texts.filter { text in issued.contains { text.contains($0) } }
    #expect(leaking.count == 0, "span texts hold an issued token (not printed)")
    // The URLs are there, masked (`url.full` of the token endpoint; the userinfo URL that held the
    // access token in its query is masked from where the secret starts).
    #expect(texts.contains { $0.hasPrefix("http://127.0.0.1:") && $0.hasSuffix("/oauth/token") })
  }

  /// Without a tracer nothing is injected: requests leave as they were.
  @Test func withoutATracerNothingIsInjected() async throws {
    let wire = Wire()
    _ = try await SessionHarness.run(scenarios: [("traced.yaml", Self.scenario)], reporters: []) {
      $0.transportLayer = { Tap(base: $0, wire: wire) }
    }
    let requests = wire.requests.withLock { $0 }
    #expect(!requests.isEmpty)
    #expect(requests.allSatisfy { $0.headers[InMemoryTracer.traceIDKey] == nil && $0.headers["traceparent"] == nil })
  }
}
