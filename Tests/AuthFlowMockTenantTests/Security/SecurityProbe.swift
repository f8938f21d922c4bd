import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Shared material of the attack probes: logins that yield codes and tokens, and forged JWTs.
enum SecurityProbe {
  static let alice = (email: "alice@example.com", password: "Alice-Passw0rd!")

  /// Alice's code through Universal Login.
  static func code(
    _ browser: inout Browser, _ parameters: AuthorizeParameters = AuthorizeParameters()
  ) async throws -> String {
    let callback = try await browser.login(parameters, email: alice.email, password: alice.password)
    return try #require(items(of: callback)["code"])
  }

  /// Follows `/authorize` at `uri` to the login form, logs Alice in, and returns the callback.
  static func callback(_ browser: inout Browser, uri: String) async throws -> String {
    let authorize = try await browser.get(uri)
    let loginURL = try #require(authorize.location, "\(authorize.text)")
    let page = try await browser.get(loginURL)
    let state = try #require(hiddenField("state", in: page.text))
    let csrf = try #require(hiddenField("_csrf", in: page.text))
    let submitted = try await browser.postForm(
      loginURL, [("state", state), ("_csrf", csrf), ("username", alice.email), ("password", alice.password)])
    return try #require(submitted.location, "\(submitted.text)")
  }

  /// Alice's tokens from the password-realm grant of the native client.
  static func tokens(
    _ client: any TestClientProtocol, scope: String = "openid profile email offline_access",
    audience: String? = nil
  ) async throws -> [String: Value] {
    var body = AttackProtectionTests.passwordRealm(alice.email, alice.password)
    body["scope"] = .string(scope)
    if let audience { body["audience"] = .string(audience) }
    let response = try await client.postJSON("/oauth/token", body)
    #expect(response.status == .ok, "\(response.text)")
    return response.json
  }

  /// A compact JWS from raw segments: `header` and `claims` as given, `signature` bytes as given.
  static func compact(header: [String: Value], claims: [String: Value], sign: (Data) throws -> Data) rethrows -> String
  {
    let input =
      Base64URL.encode(Data(Value.object(header).jsonText(revealSecrets: true).utf8)) + "."
      + Base64URL.encode(Data(Value.object(claims).jsonText(revealSecrets: true).utf8))
    return input + "." + Base64URL.encode(try sign(Data(input.utf8)))
  }

  /// The claims of a JWT, unverified.
  static func claims(of token: String) throws -> [String: Value] {
    let jws = try CompactJWS(parsing: token)
    return jws.claims
  }

  /// `token` with its payload replaced by `claims` and the original signature kept.
  static func tampered(_ token: String, claims: [String: Value]) -> String {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3 else { return token }
    return parts[0] + "." + Base64URL.encode(Data(Value.object(claims).jsonText(revealSecrets: true).utf8)) + "."
      + parts[2]
  }

  static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
}
