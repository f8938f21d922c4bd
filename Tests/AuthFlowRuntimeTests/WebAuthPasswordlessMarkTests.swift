import AuthFlowCore
import AuthFlowHTTP
import Synchronization
import Testing

@testable import AuthFlowRuntime

/// The passwordless code page reads the message that arrived after the address page was
/// submitted: by id above the inbox's mark, not by the count of messages growing. Sources keep
/// only their newest messages (an IMAP search its newest N, the mock's outbox its last 1,000), so a
/// count can stand still while the new message arrives.
@Suite struct WebAuthPasswordlessMarkTests {
  /// A mailbox that lists only the newest two messages to an address, as a capped source does.
  final class CappedMailbox: Mailbox {
    let sent = Mutex<[(id: Int, to: String, code: String)]>([
      (1, "pat@example.com", "111111"), (2, "pat@example.com", "222222"),
    ])

    func send(_ code: String, to address: String) {
      sent.withLock { $0.append(($0.count + 1, address, code)) }
    }

    func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
      sent.withLock { $0 }.filter { $0.to == address }.suffix(2).map {
        ["id": .int($0.id), "to": .string($0.to), "channel": "email", "code": .string($0.code), "body": ""]
      }
    }

    func lastID() async throws(ActionError) -> Int {
      sent.withLock { $0.last?.id ?? 0 }
    }

    var pollInterval: Duration { .milliseconds(10) }
  }

  /// The address page, then the code page (the new code is sent when the address is submitted),
  /// then the callback for the right code only.
  final class Pages: PageNavigator {
    let mailbox: CappedMailbox
    let codes = Mutex<[String]>([])

    init(mailbox: CappedMailbox) {
      self.mailbox = mailbox
    }

    func open(_ url: String) async throws(ActionError) -> PageLoad {
      .page(
        WebAuthPageTests.page(
          #"<form id="passwordless-form" method="post" action="/u/passwordless"><input name="email"></form>"#),
        status: 200)
    }

    func post(_ url: String, fields: URLParameters) async throws(ActionError) -> PageLoad {
      try await open(url)
    }

    func submit(_ submission: PageSubmission) async throws(ActionError) -> PageLoad {
      if let code = submission.fields["code"] {
        codes.withLock { $0.append(code) }
        return code == "333333"
          ? .callback("https://app.example.com/callback?code=abc&state=s")
          : .page(WebAuthPageTests.page("<p>Wrong code</p>"), status: 400)
      }
      mailbox.send("333333", to: "pat@example.com")
      return .page(
        WebAuthPageTests.page(
          #"<form method="post" action="/u/passwordless-challenge?state=x"><input name="code"></form>"#),
        status: 200)
    }

    var httpBrowser: Browser? { nil }
  }

  @Test func theCodeSentAfterTheAddressPageIsReadWhenTheListStaysTheSameLength() async throws {
    let mailbox = CappedMailbox()
    let pages = Pages(mailbox: mailbox)
    var driver = UniversalLoginDriver(
      navigator: pages, mapping: FormFieldMapping(profile: LoginPageProfile()),
      values: [.passwordless: ["email": "pat@example.com"]], stopAt: nil)
    driver.mailbox = mailbox
    driver.callback = "https://app.example.com/callback"
    let ending = try await driver.run(from: .get("https://idp.example.com/authorize"))
    guard case .callback(let url) = ending else {
      Issue.record("the flow did not reach the callback: \(ending)")
      return
    }
    #expect(url.contains("code=abc"))
    #expect(pages.codes.withLock { $0 } == ["333333"])
  }
}
