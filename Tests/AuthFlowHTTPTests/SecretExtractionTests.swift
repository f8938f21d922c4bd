import AuthFlowCore
import AuthFlowHTTP
import Testing

/// What a response issues is recognised as a value (issue 12 item 5).
@Suite("Secret extraction from a response")
struct SecretExtractionTests {
  static func response(_ body: String, type: String, headers: [(String, String)] = []) -> HTTPResponse {
    var fields = HTTPHeaderFields()
    fields["Content-Type"] = type
    for (name, value) in headers { fields.add(name: name, value: value) }
    return HTTPResponse(status: 200, headers: fields, body: Array(body.utf8), url: "https://tenant.example/x")
  }

  @Test("Tokens, tickets in links, codes in message text and error codes")
  func json() {
    let body = """
      {"token":"minted.jwt.value","messages":[{"body":"Your code is 482913","code":"482913",
      "link":"https://tenant.example/lo/reset?ticket=TICKET-abc123#"}],
      "error":{"code":"requires_verification","message":"Suspicious request"}}
      """
    let found = Set(SecretExtraction.secrets(in: Self.response(body, type: "application/json")))
    #expect(found.contains("minted.jwt.value"))
    #expect(found.contains("482913"))
    #expect(found.contains("TICKET-abc123"))
    #expect(!found.contains("requires_verification"))
  }

  @Test("Links and hidden fields in HTML, the Location header and cookies")
  func htmlAndHeaders() {
    let body = """
      <a href="https://app.example/callback?code=CODE-html-1&amp;state=s1">go</a>
      <form><input type="hidden" name="code" value="CODE-form-2"/><input name="state" value="st"/></form>
      """
    let response = Self.response(
      body, type: "text/html",
      headers: [
        ("Location", "https://app.example/cb?code=CODE-loc-3&state=x"), ("Set-Cookie", "sid=SESSION-4567; Path=/"),
      ])
    let found = Set(SecretExtraction.secrets(in: response))
    #expect(found.isSuperset(of: ["CODE-html-1", "CODE-form-2", "CODE-loc-3", "SESSION-4567"]))
    #expect(!found.contains("s1") && !found.contains("st"))
  }

  @Test("A registered value is scrubbed raw, encoded, JSON-escaped and in base64 and base64url")
  func encodedForms() {
    let registry = SecretRegistry()
    let secret = "a/b+c?d=ticket>>"
    registry.register(secret)
    let forms = [
      secret, "a%2Fb%2Bc%3Fd%3Dticket%3E%3E", #"a\/b+c?d=ticket>>"#, "YS9iK2M/ZD10aWNrZXQ+Pg==",
      "YS9iK2M_ZD10aWNrZXQ-Pg",
    ]
    for form in forms {
      #expect(registry.scrub("[\(form)]") == "[***]", "\(form)")
    }
  }

  /// Answers one fixed response, whatever is asked.
  struct FixedTransport: HTTPTransport {
    let response: HTTPResponse
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse { response }
  }

  @Test("The learning transport reads a page once and hands the page on with the response")
  func learningTransportHandsThePageOn() async throws {
    let body =
      #"<form action="/u/login?state=STATE-page-1"><input type="hidden" name="code" value="CODE-page-2"/></form>"#
    let registry = SecretRegistry()
    let html = SecretLearningTransport(
      wrapping: FixedTransport(response: Self.response(body, type: "text/html")), secrets: registry)
    let answered = try await html.send(HTTPRequest(method: .get, url: "https://tenant.example/x"))
    // The page the browser will use is the page the secrets were learned from.
    #expect(answered.page == HTMLDocument.parse(Array(body.utf8), url: "https://tenant.example/x"))
    #expect(answered.page?.forms.first?.action.contains("STATE-page-1") == true)
    #expect(HTMLDocument.parse(answered) == answered.page)
    #expect(registry.scrub("CODE-page-2") == "***")
    // The cached page takes no part in equality: the response is the one the tenant sent.
    #expect(answered == Self.response(body, type: "text/html"))

    let json = SecretLearningTransport(
      wrapping: FixedTransport(response: Self.response(#"{"access_token":"TOKEN-json-3"}"#, type: "application/json")),
      secrets: registry)
    let token = try await json.send(HTTPRequest(method: .post, url: "https://tenant.example/oauth/token"))
    #expect(token.page == nil)
    #expect(registry.scrub("TOKEN-json-3") == "***")
  }
}
