import AuthFlowCore
import AuthFlowHTTP
import Synchronization
import Testing

@testable import AuthFlowRuntime

/// A login page served over TLS whose form posts to plain HTTP — a tenant misconfigured, or one
/// playing the attacker — had the built-in browser send the test user's password in the clear. The
/// login driver now refuses to send such a form (an environment error, the tenant's fault), and
/// sends nothing at all; the same form posting over TLS is sent.
@Suite struct InsecureFormTests {
  /// Answers every request with a page and keeps what it was sent. In memory: no TLS server runs
  /// on loopback here, and the check is made before anything reaches the transport.
  final class PageTransport: HTTPTransport {
    let sent = Mutex<[HTTPRequest]>([])

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
      sent.withLock { $0.append(request) }
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "text/html"], body: Array("<p>signed in</p>".utf8), url: request.url)
    }
  }

  static func submission(action: String) throws -> PageSubmission {
    let html = """
      <form method="post" action="\(action)">
        <input name="username"><input type="password" name="password"><button type="submit">Continue</button>
      </form>
      """
    let document = HTMLDocument.parse(Array(html.utf8), url: "https://login.example.com/u/login?state=abc")
    let form = try #require(document.forms.first)
    let filled = try form.filled(with: ["username": "alice@example.com", "password": "Pa55word!"])
    return PageSubmission(
      form: form, filled: filled, fields: ["username": "alice@example.com", "password": "Pa55word!"],
      document: document)
  }

  @Test(arguments: ["http://login.example.com/u/login", "HTTP://evil.example.net/collect"])
  func aTLSPagePostingToPlainHTTPIsNotSent(action: String) async throws {
    let transport = PageTransport()
    let navigator = HTMLPageNavigator(browser: Browser(transport: transport))
    let submission = try Self.submission(action: action)
    do throws(ActionError) {
      _ = try await navigator.submit(submission)
      Issue.record("the form was sent to \(action)")
    } catch {
      #expect(error.kind == .environment, "\(error)")
      #expect(error.message.contains("over plain HTTP"), "\(error.message)")
      #expect(!error.message.contains("Pa55word!"))
    }
    #expect(transport.sent.withLock { $0.isEmpty }, "nothing reached the network")
  }

  @Test func theSameFormPostingOverTLSIsSent() async throws {
    let transport = PageTransport()
    let navigator = HTMLPageNavigator(browser: Browser(transport: transport))
    _ = try await navigator.submit(try Self.submission(action: "/u/login?state=abc"))
    #expect(transport.sent.withLock { $0.map(\.url) } == ["https://login.example.com/u/login?state=abc"])
  }
}
