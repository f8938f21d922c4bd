import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// ASVS V5.3 (output encoding and injection prevention): no page reflects markup from any parameter,
/// hints and typed values are escaped, and CR/LF in `state` is encoded in the `Location` header.
@Suite("ASVS V5.3 – output encoding and injection")
struct ASVS_V5_3_OutputEncodingTests {
  @Test func noPageReflectsMarkupFromAnyParameter() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      for uri in UniversalLoginProbe.reflectingURIs() {
        let response = try await client.execute(uri: uri, method: .get)
        #expect(!response.text.contains("<script>alert(1)"), "\(uri)")
        #expect(!response.text.contains("<img src=x"), "\(uri)")
        #expect(response.location == nil || !(response.location ?? "").contains("<"), "\(uri)")
      }
    }
  }

  @Test func hintsAndTypedValuesAreEscapedOnTheFormPages() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var signup = AuthorizeParameters()
      signup.extra = [("screen_hint", "signup"), ("login_hint", UniversalLoginProbe.payload)]
      let page = try await UniversalLoginProbe.loginPage(&browser, signup)
      #expect(page.text.contains("data-page=\"signup\""))
      #expect(!page.text.contains("<script>alert(1)"))
      #expect(page.text.contains("value=\"&quot;&#39;&gt;&lt;script&gt;"))
      // The value typed into the organization prompt comes back escaped with the error.
      var b2b = AuthorizeParameters()
      b2b.clientID = "b2b-client-id"
      b2b.redirectURI = "https://b2b.example.com/callback"
      var other = Browser(client)
      let prompt = try #require(try await other.get(b2b.uri).location)
      let form = try await other.get(prompt)
      let typed = try await other.postForm(
        prompt,
        [
          ("state", hiddenField("state", in: form.text) ?? ""), ("_csrf", hiddenField("_csrf", in: form.text) ?? ""),
          ("organization_name", UniversalLoginProbe.payload),
        ])
      #expect(typed.status == .badRequest)
      #expect(!typed.text.contains("<script>alert(1)"))
      #expect(typed.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }
  }

  @Test func crlfInStateIsEncodedInTheLocation() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.execute(
        uri: RedirectProbe.silent(mode: "query", state: "x\r\nSet-Cookie: evil=1"), method: .get)
      let location = try #require(response.location)
      #expect(!location.contains("\r") && !location.contains("\n"))
      #expect(location.contains("state=x%0D%0ASet-Cookie%3A%20evil%3D1"))
      #expect(response.headers[.setCookie] == nil)
    }
  }
}
