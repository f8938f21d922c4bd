import AuthFlowHTTP
import Foundation
import Hummingbird
import Testing

@Suite struct BrowserTests {
  /// A login-like flow: GET /login sets a session cookie and renders a form with a CSRF token;
  /// POST /login checks both and redirects to the app's callback with a code.
  static func loginRoutes(_ router: Router<BasicRequestContext>) {
    router.get("/authorize") { _, _ in
      Response.text("", status: .found, headers: [("Location", "/login?state=xyz")])
    }
    router.get("/login") { request, _ in
      let state = request.uri.queryParameters.get("state") ?? ""
      let page = """
        <!DOCTYPE html><html><head><title>Log in</title></head><body>
        <form method="post"><input type="hidden" name="csrf" value="tok-123">
        <input type="hidden" name="state" value="\(state)">
        <input name="username"><input type="password" name="password">
        <button type="submit" name="action" value="default">Continue</button></form></body></html>
        """
      return Response.text(
        page, contentType: "text/html; charset=utf-8", headers: [("Set-Cookie", "sid=s3cr3t; Path=/; HttpOnly")])
    }
    router.post("/login") { request, _ in
      let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
      let form = URLParameters(parsing: body, decoding: .form)
      let cookie = request.headers[.cookie] ?? ""
      guard cookie.contains("sid=s3cr3t"), form["csrf"] == "tok-123", form["password"] == "p@ss word",
        form["action"] == "default"
      else {
        return Response.text("bad login: cookie=\(cookie) body=\(body)", status: .badRequest)
      }
      return Response.text(
        "", status: .found,
        headers: [("Location", "com.example.app://callback?code=abc&state=\(form["state"] ?? "")")])
    }
  }

  @Test func loginFlowCarriesCookiesAndCapturesTheCallback() async throws {
    try await TestServer.with(Self.loginRoutes) { base in
      try await withLiveTransport { transport in
        let browser = Browser(transport: transport)
        let page = try await browser.get(base + "/authorize")
        #expect(page.visited == [base + "/authorize", base + "/login?state=xyz"])
        #expect(page.response.status == 200)
        #expect(await browser.cookies.map(\.name) == ["sid"])

        let document = HTMLDocument.parse(page.response)
        #expect(document.title == "Log in")
        let form = try document.form(.containingFieldOfType("password"))
        #expect(form.action == base + "/login?state=xyz")
        let filled = try form.filled(with: ["username": "alice@example.com", "password": "p@ss word"])
        let result = try await browser.send(try filled.submission())

        #expect(result.response.status == 302, "\(result.response.bodyText)")
        #expect(result.callbackURL == "com.example.app://callback?code=abc&state=xyz")
        #expect(result.visited == [base + "/login?state=xyz"])
        #expect(URLParameters.query(of: result.callbackURL ?? "")["code"] == "abc")
      }
    }
  }

  @Test func registeredHTTPSCallbackIsNotFetched() async throws {
    try await TestServer.with({ router in
      router.get("/go") { _, _ in
        Response.text("", status: .found, headers: [("Location", "https://app.example.com/callback?code=1")])
      }
    }) { base in
      try await withLiveTransport { transport in
        let browser = Browser(transport: transport, callbackPrefixes: ["https://app.example.com/callback"])
        let result = try await browser.get(base + "/go")
        #expect(result.callbackURL == "https://app.example.com/callback?code=1")
        #expect(result.visited == [base + "/go"])
      }
    }
  }

  static func methodRoutes(_ router: Router<BasicRequestContext>) {
    router.post("/see-other") { _, _ in Response.text("", status: .seeOther, headers: [("Location", "/method")]) }
    router.post("/temporary") { _, _ in
      Response.text("", status: .temporaryRedirect, headers: [("Location", "/method")])
    }
    router.post("/found") { _, _ in Response.text("", status: .found, headers: [("Location", "/method")]) }
    for method in [HTTPRequest.Method.get, .post] {
      router.on("/method", method: method) { request, _ in
        let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
        return "\(request.method.rawValue) \(body)"
      }
    }
  }

  @Test(arguments: [("/see-other", "GET "), ("/found", "GET "), ("/temporary", "POST a=1")])
  func redirectStatusDecidesTheNextMethod(path: String, expected: String) async throws {
    try await TestServer.with(Self.methodRoutes) { base in
      try await withLiveTransport { transport in
        let browser = Browser(transport: transport)
        let result = try await browser.send(.form(url: base + path, fields: ["a": "1"]))
        #expect(result.response.bodyText == expected)
        #expect(result.visited == [base + path, base + "/method"])
      }
    }
  }

  @Test func redirectLoopIsBounded() async throws {
    try await TestServer.with({ router in
      router.get("/loop") { _, _ in Response.text("", status: .found, headers: [("Location", "/loop")]) }
    }) { base in
      try await withLiveTransport { transport in
        let browser = Browser(transport: transport)
        let error = await #expect(throws: TransportError.self) { try await browser.get(base + "/loop") }
        #expect(error?.kind == .tooManyRedirects)
      }
    }
  }

  @Test func redirectsAreReturnedWhenNotFollowed() async throws {
    try await TestServer.with(Self.loginRoutes) { base in
      try await withLiveTransport { transport in
        let browser = Browser(transport: transport)
        let result = try await browser.get(base + "/authorize", followRedirects: false)
        #expect(result.response.status == 302)
        #expect(result.response.location == base + "/login?state=xyz")
        #expect(result.callbackURL == nil)
      }
    }
  }

  @Test func poolSharesBrowsersByNameAndIsolatesOthers() async throws {
    let pool = BrowserPool(transport: RecordingTransport { _ in ClientResponse(status: 200, url: "") })
    let first = await pool.browser(named: "alice")
    let again = await pool.browser(named: "alice")
    let isolated = await pool.isolatedBrowser()
    #expect(first === again)
    #expect(first !== isolated)
    await first.setCookie(Cookie(name: "sid", value: "1", domain: "example.com"))
    #expect(await again.cookies.count == 1)
    #expect(await isolated.cookies.isEmpty)
    await again.clearCookies()
    #expect(await first.cookies.isEmpty)
  }

  @Test func cookieHeaderIsSentOnlyWhereItApplies() async throws {
    let transport = RecordingTransport { request in
      var response = ClientResponse(status: 200, url: request.url)
      if request.url.hasSuffix("/set") {
        response.headers.add(name: "Set-Cookie", value: "a=1; Path=/app")
        response.headers.add(name: "Set-Cookie", value: "b=2; Domain=example.com; Path=/")
      }
      return response
    }
    let browser = Browser(transport: transport)
    _ = try await browser.get("https://login.example.com/app/set")
    _ = try await browser.get("https://login.example.com/app/page")
    _ = try await browser.get("https://other.example.com/")
    _ = try await browser.get("https://login.example.com/")
    let cookies = await transport.requests.map { $0.headers["Cookie"] }
    #expect(cookies == [nil, "a=1; b=2", "b=2", "b=2"])
  }
}

/// A transport that answers from a closure and records requests.
actor RecordingTransport: HTTPTransport {
  private(set) var requests: [ClientRequest] = []
  private let respond: @Sendable (ClientRequest) throws(TransportError) -> ClientResponse

  init(_ respond: @escaping @Sendable (ClientRequest) throws(TransportError) -> ClientResponse) {
    self.respond = respond
  }

  func send(_ request: ClientRequest) async throws(TransportError) -> ClientResponse {
    requests.append(request)
    return try respond(request)
  }
}
