import AuthFlowHTTP
import AuthFlowTestSupport
import Foundation
import Testing

@Suite struct ExchangeFormatterTests {
  static let exchange = HTTPExchange(
    request: ClientRequest(
      method: .post, url: "https://t.example.com/oauth/token?audience=api",
      headers: [
        "Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic Y2xpZW50OnNlY3JldA==",
        "Cookie": "sid=abc; theme=dark", "DPoP": "eyJhbGciOi.proof.sig",
      ],
      body: Array(
        "grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA&code_verifier=dBjftJeZ4CVP&redirect_uri=x".utf8)),
    outcome: .success(
      ClientResponse(
        status: 302,
        headers: [
          "Content-Type": "application/json", "Set-Cookie": "sid=xyz; Path=/; HttpOnly",
          "Location": "com.example.app://cb?code=abc&state=s#access_token=t&id_token=i",
        ],
        body: Array(
          #"{"access_token":"at","refresh_token":"rt","expires_in":86400,"nested":{"id_token":"x","password":null}}"#
            .utf8),
        url: "https://t.example.com/oauth/token")),
    startedAt: Date(timeIntervalSince1970: 0), duration: .milliseconds(12))

  @Test func masksSensitiveHeadersAndFields() throws {
    let text = ExchangeFormatter().format(Self.exchange)
    if let mismatch = Snapshot.verify(text, named: "trace-masked") { Issue.record("\(mismatch)") }
    for secret in ["Y2xpZW50", "sid=abc", "SplxlOBeZQQ", "dBjftJ", "\"at\"", "\"rt\"", "sid=xyz", "code=abc", "proof"] {
      #expect(!text.contains(secret), "\(secret) leaked")
    }
  }

  @Test func revealSecretsShowsEverything() {
    let text = ExchangeFormatter(revealSecrets: true).format(Self.exchange)
    #expect(text.contains("code=SplxlOBeZQQYbYS6WxSbIA"))
    #expect(text.contains("Authorization: Basic Y2xpZW50OnNlY3JldA=="))
  }

  @Test func failuresAndLongBodies() {
    let failed = HTTPExchange(
      request: ClientRequest(url: "http://127.0.0.1:1/authorize?code=zzz"),
      outcome: .failure(TransportError(kind: .connectionRefused, message: "connection refused by 127.0.0.1:1")),
      startedAt: Date(), duration: .milliseconds(3))
    #expect(
      ExchangeFormatter().format(failed)
        == "→ GET http://127.0.0.1:1/authorize?code=***\n✗ connectionRefused: connection refused by 127.0.0.1:1 (3ms)")

    let long = HTTPExchange(
      request: ClientRequest(url: "https://x/"),
      outcome: .success(
        ClientResponse(status: 200, body: Array(String(repeating: "a", count: 50).utf8), url: "https://x/")),
      startedAt: Date(), duration: .milliseconds(1))
    #expect(ExchangeFormatter(maxBodyLength: 10).format(long).hasSuffix("  aaaaaaaaaa… (40 more characters)"))
  }

  @Test func tracingTransportReportsEveryExchange() async throws {
    let base = RecordingTransport { request in ClientResponse(status: 204, url: request.url) }
    let seen = RetryingTransportTests.Sleeps()
    let tracing = TracingTransport(wrapping: base) { exchange in
      if case .success(let response) = exchange.outcome { seen.record(.seconds(response.status)) }
    }
    _ = try await tracing.send(ClientRequest(url: "https://x/a"))
    #expect(seen.all == [.seconds(204)])
  }
}
