import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

// The helpers of the attack probes, shared by the section files (docs/security-tests.md).

/// Authorization-code probes.
enum CodeProbe {
  static let verifier = AuthorizeParameters().verifier
}

/// Probes of where the mock sends the browser.
enum RedirectProbe {
  /// Near misses of the native client's `https://app.example.com/callback`.
  static let nearMisses = [
    "https://app.example.com/callbackx", "https://app.example.com/callback/evil",
    "https://app.example.com/callback?x=1",
    "https://app.example.com/callback#x", "https://app.example.com/Callback", "https://APP.example.com/callback",
    "https://app.example.com@evil.example.com/callback", "https://evil.example.com@app.example.com/callback",
    "https://app.example.com/callback/", "https://app.example.com./callback", "https://app.example.com:443/callback",
    "http://app.example.com/callback", "https://app.example.com/x/../callback", "https://app.example.com/callback%2F",
    " https://app.example.com/callback", "https://app.example.com/callback\r\nSet-Cookie: evil=1",
    "https://app.example.com%2F@evil.example.com/callback", "//evil.example.com/callback",
  ]

  static let logoutNearMisses = [
    "https://app.example.com/callbackx", "https://app.example.com/callback/", "https://app.example.com/callback?x=1",
    "https://app.example.com@evil.example.com/callback", "https://APP.example.com/callback", "//evil.example.com",
    "https://web.example.com/", "https://evil.example.com/",
  ]

  /// `prompt=none` without a session answers `login_required` on the redirect channel: a way to
  /// reflect `state` through each response mode.
  static func silent(
    mode: String, state: String, clientID: String = "native-client-id", type: String = "code"
  )
    -> String
  {
    var parameters = AuthorizeParameters()
    parameters.clientID = clientID
    parameters.state = state
    parameters.extra = [("prompt", "none"), ("response_mode", mode)]
    if clientID == "legacy-client-id" { parameters.redirectURI = "https://legacy.example.com/mobile" }
    return parameters.uri.replacingOccurrences(of: "response_type=code", with: "response_type=\(escape(type))")
  }

  static let payload = "\"'></script><script>alert(1)</script><!--\u{2028}"
}

/// Token-endpoint probes.
enum TokenProbe {
  static func refresh(
    _ client: any TestClientProtocol, _ token: String, clientID: String = "native-client-id",
    secret: String? = nil
  ) async throws -> TestResponse {
    var body: [String: Value] = [
      "grant_type": .string("refresh_token"), "client_id": .string(clientID), "refresh_token": .string(token),
    ]
    if let secret { body["client_secret"] = .string(secret) }
    return try await client.postJSON("/oauth/token", body)
  }
}

/// Universal Login page probes.
enum UniversalLoginProbe {
  static let payload = "\"'><script>alert(1)</script><img src=x onerror=alert(2)>"

  /// The login page of a fresh transaction: its URL and fields.
  static func loginPage(
    _ browser: inout Browser, _ parameters: AuthorizeParameters = AuthorizeParameters()
  )
    async throws -> (url: String, text: String, state: String, csrf: String)
  {
    let url = try #require(try await browser.get(parameters.uri).location)
    let page = try await browser.get(url)
    return (
      url, page.text, try #require(hiddenField("state", in: page.text)),
      try #require(hiddenField("_csrf", in: page.text))
    )
  }

  /// Pages that show something from the request, each with the payload in every parameter it reads.
  static func reflectingURIs() -> [String] {
    let p = escape(payload)
    return [
      "/authorize?client_id=\(p)&response_type=code&redirect_uri=\(p)&state=\(p)",
      "/authorize?client_id=native-client-id&response_type=code&redirect_uri=\(p)&state=\(p)&login_hint=\(p)",
      "/u/login?state=\(p)", "/u/signup?state=\(p)", "/u/mfa-otp-challenge?state=\(p)", "/u/organization?state=\(p)",
      "/lo/reset?ticket=\(p)", "/lo/unblock?ticket=\(p)",
      "/login/callback?state=\(p)&error=\(p)&error_description=\(p)",
      "/v2/logout?returnTo=\(p)", "/v2/logout?client_id=\(p)&returnTo=\(p)",
      "/oidc/logout?post_logout_redirect_uri=\(p)&state=\(p)", "/oidc/logout?client_id=\(p)",
      "/oidc/logout?id_token_hint=\(p)", "/social/github/login/oauth/authorize?state=\(p)&login=\(p)",
    ]
  }

  /// The `Set-Cookie` attributes, lowercased.
  static func attributes(_ setCookie: String?) -> Set<String> {
    Set(
      (setCookie ?? "").split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
  }
}

/// MFA probes.
enum MFAProbe {
  static func otp(_ client: any TestClientProtocol, token: String, code: String) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token", MFAAPITests.grant(MFAAPITests.mfaOTP, ["mfa_token": .string(token), "otp": .string(code)]))
  }

  /// A six-digit code that is not bob's current one.
  static func wrongCode(_ tenant: MockTenant) throws -> String {
    try UniversalLoginMFATests.code(tenant) == "000000" ? "111111" : "000000"
  }
}

/// Login CSRF probes.
enum LoginCSRFProbe {
  static func credentials(_ page: (url: String, text: String, state: String, csrf: String)) -> [(String, String)] {
    [
      ("state", page.state), ("_csrf", page.csrf), ("username", SecurityProbe.alice.email),
      ("password", SecurityProbe.alice.password),
    ]
  }
}

/// Brute-force probes.
enum BruteForceProbe {
  static func limited() throws -> MockTenant { try MockHarness.tenant { $0.settings.bruteForceLimit = 3 } }
}
