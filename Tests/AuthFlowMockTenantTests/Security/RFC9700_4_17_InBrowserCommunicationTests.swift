import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.17 (attacks on in-browser communication flows): `form_post` and `web_message`
/// responses escape every value, are not framable, and post only to the callback's origin.
@Suite("RFC 9700 §4.17 – in-browser communication flows")
struct RFC9700_4_17_InBrowserCommunicationTests {
  @Test func formPostEscapesEveryValueAndIsNotFramable() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.execute(
        uri: RedirectProbe.silent(mode: "form_post", state: RedirectProbe.payload), method: .get)
      #expect(response.status == .ok)
      #expect(response.location == nil)
      #expect(response.text.contains("action=\"https://app.example.com/callback\""))
      #expect(response.text.contains("name=\"error\" value=\"login_required\""))
      #expect(!response.text.contains("<script>alert(1)"))
      #expect(response.text.contains("&quot;&#39;&gt;&lt;/script&gt;&lt;script&gt;alert(1)"))
      #expect(response.headers[.init("X-Frame-Options")!] == "DENY")
      #expect(response.headers[.cacheControl] == "no-store")
    }
  }

  @Test func webMessageEscapesTheScriptContextAndPostsOnlyToTheCallbackOrigin() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.execute(
        uri: RedirectProbe.silent(mode: "web_message", state: RedirectProbe.payload), method: .get)
      #expect(response.status == .ok)
      #expect(response.location == nil)
      let page = response.text
      #expect(!page.contains("</script><script>alert(1)"))
      #expect(!page.contains("<!--"))
      #expect(!page.contains("\u{2028}"))
      #expect(page.contains("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"))
      #expect(page.contains("var targetOrigin = \"https://app.example.com\";"))
      #expect(!page.contains("\"*\""))
      #expect(response.headers[.init("Content-Security-Policy")!] == "frame-ancestors https://app.example.com")
    }
  }
}
