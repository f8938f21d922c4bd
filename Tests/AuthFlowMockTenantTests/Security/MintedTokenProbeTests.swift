import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on tokens made by `/__mock/sign`: whatever the claims and header, and however the
/// signature is re-encoded, the tenant's resource endpoints refuse them; and the JOSE parser of
/// the mock and the runner reads only canonical base64url (RFC 7515 §2).
@Suite("RFC 9700 §4.7 / ASVS V3.5.3 – minted test tokens never pass as tenant tokens; canonical base64url")
struct MintedTokenProbeTests {
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
      for target in JWTProbeTests.targets {
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
