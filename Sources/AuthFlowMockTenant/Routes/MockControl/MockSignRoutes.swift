import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// `POST /__mock/sign` (test control, mock only): signs arbitrary header and claims with the
/// mock's minting key, so scenarios can build ID tokens that break one docs/protocol.md §5 rule each. The
/// minting key is published in the JWKS (a relying party verifies minted tokens) but is never a
/// tenant key: the tenant's own endpoints verify with the tenant keys only and refuse every minted
/// token, whatever its header says and however its signature is encoded.
///
/// Body: `{"claims": {…}, "header": {…}, "client_id": "…", "defaults": true, "omit": ["exp"],
/// "variant": "valid" | "none" | "hs256" | "bad_signature"}`. With `defaults` (the default),
/// `iss`, `sub`, `aud` (`client_id`), `iat` and `exp` (virtual clock, +1 h) are filled in before
/// `claims` and `omit` apply. The header starts as `{"alg":"RS256","kid":<minting kid>,"typ":"JWT"}`
/// and `header` overrides it (a different `kid` gives an unknown-kid token).
struct MockSignRoutes {
  let tenant: MockTenant

  enum Variant: String {
    case valid, none, hs256
    case badSignature = "bad_signature"
  }

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "mockSign": { request, context in
        guard let body = await RequestParameters.body(of: request, context: context) else {
          return Self.invalid("Body must be a JSON object")
        }
        guard let variant = Variant(rawValue: body.string("variant") ?? "valid") else {
          return Self.invalid("variant must be one of valid, none, hs256, bad_signature")
        }
        guard let key = try? tenant.mintingKey() else {
          return Self.keyGenerationFailed.response
        }
        let token = sign(body, variant: variant, key: key)
        tenant.recordMinted(token)
        return Responses.json(.object(["token": .string(token)]))
      }
    ]
  }

  private func sign(_ body: RequestParameters, variant: Variant, key: SigningKey) -> String {
    var claims: [String: Value] = [:]
    if body.values["defaults"]?.boolValue ?? true {
      let now = tenant.clock.epoch
      claims = [
        "iss": .string(tenant.issuer), "sub": .string("auth0|alice0001"), "iat": .int(now), "exp": .int(now + 3600),
      ]
      if let clientID = body.string("client_id") { claims["aud"] = .string(clientID) }
    }
    for (name, value) in body.values["claims"]?.objectValue ?? [:] { claims[name] = value }
    for name in body.values["omit"]?.arrayValue?.compactMap(\.stringValue) ?? [] { claims[name] = nil }
    var header: [String: Value] = [
      "alg": .string("RS256"), "kid": .string(key.kid), "typ": .string("JWT"),
    ]
    switch variant {
    case .none: header["alg"] = .string("none")
    case .hs256: header["alg"] = .string("HS256")
    case .valid, .badSignature: break
    }
    for (name, value) in body.values["header"]?.objectValue ?? [:] { header[name] = value }
    let input = Self.segment(.object(header)) + "." + Self.segment(.object(claims))
    let signature: Data
    switch variant {
    case .none:
      signature = Data()
    case .hs256:
      signature =
        (try? SigningKey(hmacSecret: Data("mock-hs256-secret".utf8)).signature(for: Data(input.utf8))) ?? Data()
    case .valid, .badSignature:
      var bytes = (try? key.signature(for: Data(input.utf8))) ?? Data()
      if variant == .badSignature, !bytes.isEmpty { bytes[bytes.startIndex] ^= 0xFF }
      signature = bytes
    }
    return input + "." + Base64URL.encode(signature)
  }

  private static func segment(_ value: Value) -> String {
    Base64URL.encode(Data(value.jsonText(revealSecrets: true).utf8))
  }

  static let keyGenerationFailed = OAuthError(
    status: .conflict, code: "key_generation_failed", description: "Could not make the minting key. Try again.")

  private static func invalid(_ description: String) -> Response {
    OAuthError(status: .badRequest, code: "invalid_request", description: description).response
  }
}
