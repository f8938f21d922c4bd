import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on the bearer tokens the mock's resource endpoints accept (`/userinfo`,
/// `/me/v1/*`, `/api/v2/*`): each forgery of a real token is refused everywhere, and the real
/// token is accepted (the control).
@Suite("ASVS V3.5.3 / RFC 9700 §4.10.2 – forged, tampered and foreign-audience tokens are refused")
struct ASVS_V3_5_ForgedTokenTests {
  enum Forgery: String, CaseIterable, Sendable {
    case algNone, hs256WithThePublicKey, unknownKid, anotherKeySameKid, expired, noExpiry, wrongAudience
    case wrongIssuer, tamperedPayload, idTokenAsAccessToken, mintedByMockSign
  }

  /// One resource endpoint and the token it takes.
  struct Target: Sendable {
    var name: String
    var uri: String
    var scope: String
    var audience: String?
  }

  static let targets = [
    // An API audience, so the access token is a JWT (with the userinfo audience) to forge from;
    // without one it is opaque (OpaqueAccessTokenTests).
    Target(name: "userinfo", uri: "/userinfo", scope: "openid profile email", audience: "https://api.example.com"),
    Target(
      name: "my account", uri: "/me/v1/authentication-methods", scope: "openid read:me:authentication_methods",
      audience: "http://mock.test/me/"),
    Target(
      name: "management", uri: "/api/v2/users/auth0%7Calice0001", scope: "openid read:current_user",
      audience: "http://mock.test/api/v2/"),
  ]

  static func forge(
    _ forgery: Forgery, access: String, idToken: String, client: any TestClientProtocol
  ) async throws -> String {
    let real = try CompactJWS(parsing: access)
    var claims = real.claims
    let key = MockHarness.key
    let typ: [String: Value] = ["typ": .string("at+jwt")]
    switch forgery {
    case .algNone:
      return SecurityProbe.compact(
        header: ["alg": .string("none"), "kid": .string(key.kid), "typ": .string("at+jwt")], claims: claims
      ) { _ in Data() }
    case .hs256WithThePublicKey:
      // The classic confusion: the RSA public key's bytes used as an HMAC secret.
      let publicKey = try #require(key.publicJWK?.n.flatMap(Base64URL.decode))
      return try SigningKey(hmacSecret: publicKey, kid: key.kid).sign(header: typ, claims: claims)
    case .unknownKid:
      return try SecurityProbe.compact(
        header: ["alg": .string("RS256"), "kid": .string("not-published"), "typ": .string("at+jwt")], claims: claims,
        sign: key.signature(for:))
    case .anotherKeySameKid:
      return try SigningKey.generateRSA(kid: key.kid).sign(header: typ, claims: claims)
    case .expired:
      claims["exp"] = .int((claims["iat"]?.intValue ?? 0) - 1)
      return try key.sign(header: typ, claims: claims)
    case .noExpiry:
      claims["exp"] = nil
      return try key.sign(header: typ, claims: claims)
    case .wrongAudience:
      claims["aud"] = .array([.string("https://api.example.com"), .string("https://evil.example.com/")])
      return try key.sign(header: typ, claims: claims)
    case .wrongIssuer:
      claims["iss"] = .string("https://evil.example.com/")
      return try key.sign(header: typ, claims: claims)
    case .tamperedPayload:
      claims["scope"] = .string((claims["scope"]?.stringValue ?? "") + " read:users update:users")
      return SecurityProbe.tampered(access, claims: claims)
    case .idTokenAsAccessToken:
      return idToken
    case .mintedByMockSign:
      let minted = try await client.postJSON(
        "/__mock/sign", ["defaults": .bool(false), "claims": .object(claims), "header": .object(typ)])
      return try #require(minted.json["token"]?.stringValue)
    }
  }

  @Test(arguments: Forgery.allCases) func forgedTokensAreRefusedByEveryResourceEndpoint(_ forgery: Forgery) async throws
  {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      for target in Self.targets {
        let tokens = try await SecurityProbe.tokens(client, scope: target.scope, audience: target.audience)
        let access = try #require(tokens["access_token"]?.stringValue)
        let idToken = try #require(tokens["id_token"]?.stringValue)
        let control = try await client.execute(uri: target.uri, method: .get, headers: SecurityProbe.bearer(access))
        #expect(control.status == .ok, "\(target.name): the real token must work: \(control.text)")
        let forged = try await Self.forge(forgery, access: access, idToken: idToken, client: client)
        let response = try await client.execute(uri: target.uri, method: .get, headers: SecurityProbe.bearer(forged))
        #expect(response.status == .unauthorized, "\(target.name) accepted \(forgery.rawValue): \(response.text)")
      }
    }
  }

  @Test func aTokenForOneAPIIsNotAcceptedByAnother() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let custom = try await SecurityProbe.tokens(
        client, scope: "openid read:messages", audience: "https://api.example.com")
      let access = try #require(custom["access_token"]?.stringValue)
      for target in Self.targets.dropFirst() {
        let response = try await client.execute(uri: target.uri, method: .get, headers: SecurityProbe.bearer(access))
        #expect(response.status == .unauthorized, "\(target.name)")
      }
    }
  }

  @Test func anExpiredLinkWithTokenIsRefused() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let management = try await SecurityProbe.tokens(
        client, scope: "openid update:current_user_identities", audience: "http://mock.test/api/v2/")
      let access = try #require(management["access_token"]?.stringValue)
      let now = tenant.clock.epoch
      let stale = try MockHarness.key.sign(claims: [
        "iss": .string("http://mock.test/"), "sub": .string("auth0|bob0002"), "aud": .string("native-client-id"),
        "iat": .int(now - 7200), "exp": .int(now - 3600),
      ])
      let response = try await client.execute(
        uri: "/api/v2/users/auth0%7Calice0001/identities", method: .post,
        headers: [.authorization: "Bearer \(access)", .contentType: "application/json"],
        body: .init(string: Value.object(["link_with": .string(stale)]).jsonText(revealSecrets: true)))
      #expect(response.status == .badRequest)
      #expect(response.json["errorCode"] == .string("invalid_body"))
      #expect(tenant.read({ $0.identityLinks.identities(of: "auth0|alice0001") }).isEmpty)
    }
  }
}

/// Attack probes on tokens made by `/__mock/sign`: whatever the claims and header, and however the
/// signature is re-encoded, the tenant's resource endpoints refuse them; and the JOSE parser of
/// the mock and the runner reads only canonical base64url (RFC 7515 §2).
@Suite("ASVS V3.5.3 / RFC 7515 §2 – minted test tokens never pass as tenant tokens; canonical base64url")
struct ASVS_V3_5_MintedTokenTests {
  enum Encoding: String, CaseIterable, Sendable {
    case original, padded, standardAlphabet, nonCanonicalLastCharacter
  }

  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

  /// `segment` re-encoded: `=` padding, the `+/` alphabet, or the last character's unused bits set.
  static func reencode(_ segment: String, _ encoding: Encoding) -> String {
    switch encoding {
    case .original:
      return segment
    case .padded:
      return segment + String(repeating: "=", count: (4 - segment.count % 4) % 4 == 0 ? 2 : (4 - segment.count % 4))
    case .standardAlphabet:
      // Every `-` and `_` in the standard alphabet, and at least one of them: a signature without
      // either gets its first character swapped for the `+` encoding of the same sextet.
      let swapped = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
      return swapped != segment ? swapped : "+" + segment.dropFirst()
    case .nonCanonicalLastCharacter:
      guard let last = segment.last, let index = alphabet.firstIndex(of: last), segment.count % 4 != 0 else {
        return segment + "A"
      }
      return segment.dropLast() + String(alphabet[index ^ 1])
    }
  }

  /// `token` with its signature segment re-encoded.
  static func reencoded(_ token: String, _ encoding: Encoding) -> String {
    var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    parts[2] = reencode(parts[2], encoding)
    return parts.joined(separator: ".")
  }

  @Test(arguments: Encoding.allCases) func aMintedTokenIsRefusedAtUserinfoAndTheManagementAPI(
    _ encoding: Encoding
  )
    async throws
  {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      for target in ASVS_V3_5_ForgedTokenTests.targets {
        let tokens = try await SecurityProbe.tokens(client, scope: target.scope, audience: target.audience)
        let access = try #require(tokens["access_token"]?.stringValue)
        let control = try await client.execute(uri: target.uri, method: .get, headers: SecurityProbe.bearer(access))
        #expect(control.status == .ok, "\(target.name): the real token must work: \(control.text)")
        let real = try CompactJWS(parsing: access)
        // The real token's claims and header (its kid, the tenant's), signed by /__mock/sign.
        for header: [String: Value] in [["typ": .string("at+jwt")], real.header] {
          let minted = try await client.postJSON(
            "/__mock/sign", ["defaults": .bool(false), "claims": .object(real.claims), "header": .object(header)])
          let token = Self.reencoded(try #require(minted.json["token"]?.stringValue), encoding)
          let response = try await client.execute(uri: target.uri, method: .get, headers: SecurityProbe.bearer(token))
          #expect(
            response.status == .unauthorized, "\(target.name) accepted a minted token (\(encoding)): \(response.text)")
        }
      }
    }
  }

  /// By construction: the minting key is published (relying parties verify minted tokens) but is
  /// never among the keys the tenant verifies its own tokens with.
  @Test func theMintingKeyIsNeverATenantKey() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let minted = try await client.postJSON(
        "/__mock/sign", ["header": .object(["kid": .string(tenant.signingKey.kid)])])
      let token = try #require(minted.json["token"]?.stringValue)
      #expect(throws: (any Error).self) { try tenant.verificationKeys.verify(token) }
      #expect(tenant.verifyIssued(token) == nil)
      let plain = try await client.postJSON("/__mock/sign", [:])
      let plainToken = try #require(plain.json["token"]?.stringValue)
      let kid = try #require(try CompactJWS(parsing: plainToken).keyID)
      #expect(!tenant.verificationKeys.contains(kid: kid))
      let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
      #expect(jwks.text.contains(kid), "the minting key is published for relying parties")
      #expect(tenant.verifyIssued(plainToken) == nil)
    }
  }

  /// The runner's and the mock's parser: a real tenant token re-encoded any non-canonical way, in
  /// any segment, does not parse.
  @Test(arguments: Encoding.allCases.filter { $0 != .original })
  func nonCanonicalBase64URLIsRejectedByTheParser(_ encoding: Encoding) async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let tokens = try await SecurityProbe.tokens(client)
      let idToken = try #require(tokens["id_token"]?.stringValue)
      #expect((try? CompactJWS(parsing: idToken)) != nil)
      #expect(JWTValue(raw: idToken) != nil)
      for segment in 0..<3 {
        var parts = idToken.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[segment] = Self.reencode(parts[segment], encoding)
        let forged = parts.joined(separator: ".")
        guard forged != idToken else { continue }
        #expect(throws: JWSError.self, "segment \(segment), \(encoding)") { try CompactJWS(parsing: forged) }
        #expect(JWTValue(raw: forged) == nil, "segment \(segment), \(encoding)")
        #expect(throws: (any Error).self) { try tenant.verificationKeys.verify(forged) }
      }
    }
  }
}
