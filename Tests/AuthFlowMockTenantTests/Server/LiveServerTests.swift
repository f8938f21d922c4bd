import AuthFlowCore
import Foundation
import Testing

@testable import AuthFlowMockTenant

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One live test: the server on 127.0.0.1, port 0; the login page and the session cookie over TCP.
@Suite struct LiveServerTests {
  final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }

  @Test func loginPageAndSessionCookieOverLoopback() async throws {
    try await MockHarness.withServer(exercise)
  }

  private func exercise(_ handle: MockTenantServer.Handle) async throws {
    #expect(handle.baseURL.hasPrefix("http://127.0.0.1:"))
    #expect(handle.tenant.issuer == handle.baseURL)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    let session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    func fetch(
      _ path: String, method: String = "GET", body: String? = nil, cookie: String? = nil
    ) async throws
      -> (Data, HTTPURLResponse)
    {
      var request = URLRequest(url: try #require(URL(string: handle.baseURL + path.dropFirst())))
      request.httpMethod = method
      if let body {
        request.httpBody = Data(body.utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
      }
      if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
      let (data, response) = try await session.data(for: request)
      return (data, try #require(response as? HTTPURLResponse))
    }
    let (_, authorize) = try await fetch(AuthorizeParameters().uri)
    let loginPath = try #require(authorize.value(forHTTPHeaderField: "Location"))
    // The transaction cookie binds the login to this client (login CSRF).
    let transactionCookie = try #require(
      authorize.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first.map(String.init))
    #expect(transactionCookie.hasPrefix("auth0_tx_"))
    let (pageData, page) = try await fetch(loginPath)
    #expect(page.statusCode == 200)
    let html = String(decoding: pageData, as: UTF8.self)
    let form = [
      ("state", hiddenField("state", in: html) ?? ""), ("_csrf", hiddenField("_csrf", in: html) ?? ""),
      ("username", "alice@example.com"), ("password", "Alice-Passw0rd!"),
    ].map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    let (_, submitted) = try await fetch(loginPath, method: "POST", body: form, cookie: transactionCookie)
    #expect(submitted.statusCode == 302)
    let cookie = try #require(submitted.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first)
    var silent = AuthorizeParameters()
    silent.extra = [("prompt", "none")]
    let (_, again) = try await fetch(silent.uri, cookie: String(cookie))
    #expect(items(of: again.value(forHTTPHeaderField: "Location") ?? "")["code"] != nil)
  }
}
