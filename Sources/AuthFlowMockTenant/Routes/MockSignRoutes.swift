import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird

/// `POST /__mock/sign` (test control, mock only): signs arbitrary header and claims with the
/// tenant's key, so scenarios can build ID tokens that break one PROTOCOL §5 rule each.
///
/// Body: `{"claims": {…}, "header": {…}, "client_id": "…", "defaults": true, "omit": ["exp"],
/// "variant": "valid" | "none" | "hs256" | "bad_signature"}`. With `defaults` (the default),
/// `iss`, `sub`, `aud` (`client_id`), `iat` and `exp` (virtual clock, +1 h) are filled in before
/// `claims` and `omit` apply. The header starts as `{"alg":"RS256","kid":<tenant kid>,"typ":"JWT"}`
/// and `header` overrides it (a different `kid` gives an unknown-kid token signed by the tenant).
struct MockSignRoutes {
  let tenant: MockTenant

  enum Variant: String {
    case valid, none, hs256
    case badSignature = "bad_signature"
  }

  func register(on router: Router<BasicRequestContext>) {
    router.post("/__mock/sign") { request, context in
      guard let body = await RequestParameters.body(of: request, context: context) else {
        return Self.invalid("Body must be a JSON object")
      }
      guard let variant = Variant(rawValue: body.string("variant") ?? "valid") else {
        return Self.invalid("variant must be one of valid, none, hs256, bad_signature")
      }
      let token = sign(body, variant: variant)
      tenant.recordMinted(token)
      return Responses.json(.object(["token": .string(token)]))
    }
  }

  private func sign(_ body: RequestParameters, variant: Variant) -> String {
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
      "alg": .string("RS256"), "kid": .string(tenant.signingKey.kid), "typ": .string("JWT"),
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
      var bytes = (try? tenant.signingKey.signature(for: Data(input.utf8))) ?? Data()
      if variant == .badSignature, !bytes.isEmpty { bytes[bytes.startIndex] ^= 0xFF }
      signature = bytes
    }
    return input + "." + Base64URL.encode(signature)
  }

  private static func segment(_ value: Value) -> String {
    Base64URL.encode(Data(value.jsonText(revealSecrets: true).utf8))
  }

  private static func invalid(_ description: String) -> Response {
    OAuthError(status: .badRequest, code: "invalid_request", description: description).response
  }
}
