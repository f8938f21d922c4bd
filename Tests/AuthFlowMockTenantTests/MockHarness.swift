import AuthFlowCore
import AuthFlowJOSE
import AuthFlowTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuthFlowMockTenant

/// Shared test material: the default fixture and one RSA key for the whole run.
enum MockHarness {
  /// The repository's root: the nearest folder above this file that holds `Package.swift`, found
  /// by searching upward, so that it holds wherever the tests sit among the target's sub-folders.
  static let repository: URL = {
    var directory = URL(filePath: #filePath).deletingLastPathComponent()
    for _ in 0..<6 {
      if FileManager.default.fileExists(atPath: directory.appending(path: "Package.swift").path) { return directory }
      directory = directory.deletingLastPathComponent()
    }
    // This file is `Tests/AuthFlowMockTenantTests/MockHarness.swift`.
    return URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }()

  static let fixture: TenantFixture = {
    guard let fixture = FixtureLoader.loadDefault().fixture else { fatalError("the default fixture must load") }
    return fixture
  }()

  static let key: SigningKey = {
    do {
      return try SigningKey.generateRSA(kid: "mock-test")
    } catch {
      fatalError("RSA key generation failed: \(error)")
    }
  }()

  /// Runs `body` against `fixture` (the built-in one by default) served on 127.0.0.1 (port 0), and
  /// stops the server afterwards, also when `body` throws.
  static func withServer<T>(
    fixture: TenantFixture = fixture, _ body: (MockTenantServer.Handle) async throws -> T
  ) async throws -> T {
    let handle = try await MockTenantServer.start(fixture: fixture, signingKey: key)
    return try await Scoped.run({ try await body(handle) }, finally: { await handle.stop() })
  }

  static let baseURL = "http://mock.test/"
  static let nativeCallback = "https://app.example.com/callback"

  static func tenant(_ change: (inout TenantFixture) -> Void = { _ in }) throws -> MockTenant {
    var fixture = Self.fixture
    change(&fixture)
    return try MockTenant(
      fixture: fixture, baseURL: baseURL, signingKey: key,
      clock: VirtualClock(base: { Date(timeIntervalSince1970: 1_750_000_000) }))
  }

  /// Runs `body` against an in-process router.
  static func test(
    _ tenant: MockTenant, _ body: @Sendable (any TestClientProtocol) async throws -> Void
  ) async throws {
    let app = Application(router: buildMockTenantRouter(tenant: tenant))
    try await app.test(.router) { client in try await body(client) }
  }
}

/// A browser-ish session over the router test client: cookies and form scraping.
struct Browser {
  let client: any TestClientProtocol
  /// Every cookie the mock set and did not clear, by name (the transaction cookies among them).
  var jar: [String: String] = [:]

  /// The SSO session cookie (`auth0=…`), or nil; setting it replaces (or, nil, clears) it.
  var cookie: String? {
    get { jar["auth0"].map { "auth0=\($0)" } }
    set {
      guard let newValue, let equals = newValue.firstIndex(of: "=") else {
        jar["auth0"] = nil
        return
      }
      jar[String(newValue[..<equals])] = String(newValue[newValue.index(after: equals)...])
    }
  }

  init(_ client: any TestClientProtocol) {
    self.client = client
  }

  /// The `Cookie` header of every cookie held.
  var cookieHeader: String? {
    jar.isEmpty ? nil : jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
  }

  mutating func get(_ uri: String) async throws -> TestResponse {
    var headers: HTTPFields = [:]
    if let cookieHeader { headers[.cookie] = cookieHeader }
    let response = try await client.execute(uri: uri, method: .get, headers: headers, body: nil)
    remember(response)
    return response
  }

  mutating func postForm(
    _ uri: String, _ fields: [(String, String)], headers extra: HTTPFields = [:]
  ) async throws
    -> TestResponse
  {
    var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
    if let cookieHeader { headers[.cookie] = cookieHeader }
    headers.append(contentsOf: extra)
    let body = fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    let response = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    remember(response)
    return response
  }

  private mutating func remember(_ response: TestResponse) {
    for setCookie in response.headers[values: .setCookie] {
      guard let pair = setCookie.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
      let name = String(pair[..<equals])
      let value = String(pair[pair.index(after: equals)...])
      jar[name] = value.isEmpty ? nil : value
    }
  }
}

func escape(_ text: String) -> String {
  var allowed = CharacterSet.alphanumerics
  allowed.insert(charactersIn: "-._~")
  return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

/// The value of `name="…" value="…"` in a form.
func hiddenField(_ name: String, in html: String) -> String? {
  guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
  let rest = html[range.upperBound...]
  return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
}

/// Query (or fragment) items of a URL.
func items(of url: String) -> [String: String] {
  guard let components = URLComponents(string: url) else { return [:] }
  var result: [String: String] = [:]
  for item in components.queryItems ?? [] { result[item.name] = item.value ?? "" }
  if let fragment = components.fragment {
    for pair in fragment.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { result[String(parts[0])] = String(parts[1]).removingPercentEncoding }
    }
  }
  return result
}

extension TestResponse {
  var text: String { String(buffer: body) }
  var json: [String: Value] { (try? Value(json: Data(text.utf8)))?.objectValue ?? [:] }
  var location: String? { headers[.location] }
}

/// Authorize parameters for the native client, PKCE S256.
struct AuthorizeParameters {
  var clientID = "native-client-id"
  var redirectURI = MockHarness.nativeCallback
  var state = "state-123"
  var nonce = "nonce-456"
  var scope = "openid profile email offline_access"
  var verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
  var extra: [(String, String)] = []

  var uri: String {
    var pairs = [
      ("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirectURI), ("state", state),
      ("nonce", nonce), ("scope", scope), ("code_challenge", PKCE.challenge(for: verifier)),
      ("code_challenge_method", "S256"),
    ]
    pairs += extra
    return "/authorize?" + pairs.map { "\($0.0)=\(escape($0.1))" }.joined(separator: "&")
  }
}

extension Browser {
  /// Authorize, log in on the form, and return the callback URL.
  mutating func login(
    _ parameters: AuthorizeParameters = AuthorizeParameters(), email: String, password: String
  )
    async throws -> String
  {
    let authorize = try await get(parameters.uri)
    let loginURL = try #require(authorize.location)
    let page = try await get(loginURL)
    #expect(page.status == .ok)
    let state = try #require(hiddenField("state", in: page.text))
    let csrf = try #require(hiddenField("_csrf", in: page.text))
    let submitted = try await postForm(
      loginURL, [("state", state), ("_csrf", csrf), ("username", email), ("password", password)])
    #expect(submitted.status == .found, "login failed: \(submitted.text)")
    return try #require(submitted.location)
  }
}

extension TestClientProtocol {
  func postJSON(_ uri: String, _ body: [String: Value], headers: HTTPFields = [:]) async throws -> TestResponse {
    var fields = headers
    fields[.contentType] = "application/json"
    return try await execute(
      uri: uri, method: .post, headers: fields,
      body: ByteBuffer(string: Value.object(body).jsonText(revealSecrets: true)))
  }

  func postForm(_ uri: String, _ fields: [(String, String)]) async throws -> TestResponse {
    let body = fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    return try await execute(
      uri: uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
      body: ByteBuffer(string: body))
  }

  /// Exchanges a code for the native client.
  func exchange(
    code: String, verifier: String, redirectURI: String = MockHarness.nativeCallback
  ) async throws
    -> TestResponse
  {
    try await postJSON(
      "/oauth/token",
      [
        "grant_type": .string("authorization_code"), "client_id": .string("native-client-id"),
        "code": .string(code), "code_verifier": .string(verifier), "redirect_uri": .string(redirectURI),
      ])
  }
}
