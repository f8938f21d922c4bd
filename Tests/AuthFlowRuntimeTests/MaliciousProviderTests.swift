import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
import AuthFlowResults
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Synchronization
import Testing

@testable import AuthFlowRuntime

/// A loopback OpenID Provider that serves one defect per run (its JWKS or its ID token) to
/// `web_auth`, which validates automatically: every defect must fail the step with its reason named
/// and without printing the token (docs/id-token-validation.md).
enum MaliciousProvider {
  enum Defect: String, Sendable, CaseIterable, CustomStringConvertible {
    case wellBehaved
    // OIDC Core §3.1.3.3
    case noIDToken
    // RFC 8725 §3.1 / RFC 7515 / RFC 7517
    case algNone, hs256WithPublicKey, unknownKid, signedByAnotherKey, encryptionKey, keyOpsWithoutVerify
    case keyForAnotherAlg, criticalHeader, accessTokenTyp, malformedHeader, duplicateClaim, oversized
    // OIDC Core §3.1.3.7
    case issuerWithoutSlash, audienceWithoutClient, severalAudiencesNoAzp, wrongAzp, subMissing
    case nonceMissing, nonceWrong, expMissing, expiredAnHourAgo, nbfInTheFuture, iatMissing, iatInTheFuture
    case authTimeMissing, orgIDMismatch, orgNameMismatch
    // The OpenID conformance suite's checks on every module
    case staleIssuedAt, longSubject, emptyACR, stringEmailVerified, wrongAtHash, ancientAuthTime
    case tokenTypeMissing, expiresInString, expiresInZero, issInResponseWrong, errorWithCode
    case jwksPrivateMember, jwksWithoutKid
    /// RFC 6749 §5.2 and OAuth 2.0 Form Post Response Mode §2.
    case tokenErrorAsText, tokenErrorDescriptionQuote, formPostAsGet, formPostCodeInQuery
    /// `response_type=id_token token` answered without a token_type, or with one the UserInfo does not take.
    case implicitWithoutTokenType, implicitMACTokenType
    /// `response_type=code id_token` answered with an ID token whose c_hash is not the code's, or
    /// whose sub is not the token endpoint's ID token's.
    case hybridWrongCHash, hybridOtherSub
    /// `response_type=code id_token` answered with the code alone.
    case hybridWithoutIDToken

    var description: String { rawValue }
  }

  final class Provider: Sendable {
    struct State: Sendable {
      var issuer = ""
      var nonce = ""
    }
    let defect: Defect
    let state = Mutex(State())
    let key: SigningKey
    let other: SigningKey
    static let redirect = "com.test.app://127.0.0.1/callback"

    init(_ defect: Defect) throws {
      self.defect = defect
      key = try SigningKey.generateRSA(kid: "k1")
      other = try SigningKey.generateRSA(kid: "k1")
    }

    var jwks: JWKSet {
      var jwk = key.publicJWK ?? JWK(kty: "RSA")
      switch defect {
      case .encryptionKey: jwk.use = "enc"
      case .keyOpsWithoutVerify:
        jwk.use = nil
        jwk.keyOps = ["encrypt"]
      case .keyForAnotherAlg: jwk.alg = "PS256"
      default: break
      }
      return JWKSet(keys: [jwk])
    }

    func claims() -> [String: Value] {
      let (issuer, nonce) = state.withLock { ($0.issuer, $0.nonce) }
      let now = Int(Date().timeIntervalSince1970)
      var claims: [String: Value] = [
        "iss": .string(issuer), "sub": .string("user-1"), "aud": .string("test-client"), "iat": .int(now),
        "exp": .int(now + 600), "nonce": .string(nonce), "auth_time": .int(now), "org_id": .string("org_abc"),
        "org_name": .string("acme"),
      ]
      switch defect {
      case .issuerWithoutSlash: claims["iss"] = .string(String(issuer.dropLast()))
      case .audienceWithoutClient: claims["aud"] = .array([.string("api-1"), .string("api-2")])
      case .severalAudiencesNoAzp: claims["aud"] = .array([.string("test-client"), .string("api-1")])
      case .wrongAzp:
        claims["aud"] = .array([.string("test-client"), .string("api-1")])
        claims["azp"] = .string("api-1")
      case .subMissing: claims["sub"] = nil
      case .nonceMissing: claims["nonce"] = nil
      case .nonceWrong: claims["nonce"] = .string("attacker-nonce")
      case .expMissing: claims["exp"] = nil
      case .expiredAnHourAgo: claims["exp"] = .int(now - 3600)
      case .nbfInTheFuture: claims["nbf"] = .int(now + 3600)
      case .iatMissing: claims["iat"] = nil
      case .iatInTheFuture: claims["iat"] = .int(now + 3600)
      case .authTimeMissing: claims["auth_time"] = nil
      case .orgIDMismatch: claims["org_id"] = .string("org_evil")
      case .orgNameMismatch: claims["org_name"] = .string("evil")
      case .oversized: claims["padding"] = .string(String(repeating: "x", count: 70_000))
      case .staleIssuedAt: claims["iat"] = .int(now - 600)
      case .longSubject: claims["sub"] = .string(String(repeating: "s", count: 300))
      case .emptyACR: claims["acr"] = .string("")
      case .stringEmailVerified: claims["email_verified"] = .string("true")
      case .wrongAtHash: claims["at_hash"] = .string("AAAAAAAAAAAAAAAAAAAAAA")
      case .ancientAuthTime: claims["auth_time"] = .int(now - 400 * 24 * 3600)
      default: break
      }
      return claims
    }

    /// The JWKS as the provider serves it, with a defect JSONEncoder cannot write (a private member).
    var jwksText: String {
      var jwks = self.jwks
      if defect == .jwksWithoutKid { jwks.keys[0].kid = nil }
      let text = String(decoding: (try? JSONEncoder().encode(jwks)) ?? Data(), as: UTF8.self)
      guard defect == .jwksPrivateMember else { return text }
      return text.replacingOccurrences(of: #""kty":"RSA""#, with: #""kty":"RSA","d":"c2VjcmV0""#)
    }

    /// The token response's members besides the ID token.
    var tokenMembers: String {
      switch defect {
      case .tokenTypeMissing: return #""access_token":"opaque-access","expires_in":60"#
      case .expiresInString: return #""access_token":"opaque-access","token_type":"Bearer","expires_in":"60""#
      case .expiresInZero: return #""access_token":"opaque-access","token_type":"Bearer","expires_in":0"#
      default: return #""access_token":"opaque-access","token_type":"Bearer","expires_in":60"#
      }
    }

    func raw(header: String, payload: String, signer: SigningKey?) throws -> String {
      let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
      return input + "." + (try signer.map { Base64URL.encode(try $0.signature(for: Data(input.utf8))) } ?? "")
    }

    func idToken() throws -> String? {
      let claims = claims()
      let payload = Value.object(claims).jsonText()
      switch defect {
      case .noIDToken: return nil
      case .algNone: return try raw(header: #"{"alg":"none","kid":"k1"}"#, payload: payload, signer: nil)
      case .hs256WithPublicKey:
        return try SigningKey(hmacSecret: Data((key.publicJWK?.n ?? "").utf8), kid: "k1").sign(claims: claims)
      case .unknownKid: return try SigningKey(rsaPEM: key.rsaPEM ?? "", kid: "ghost").sign(claims: claims)
      case .signedByAnotherKey: return try other.sign(claims: claims)
      case .jwksWithoutKid: return try key.sign(claims: claims, includeKeyID: false)
      case .criticalHeader:
        return try key.sign(header: ["crit": .array([.string("exp")]), "exp": .int(0)], claims: claims)
      case .accessTokenTyp: return try key.sign(header: ["typ": .string("at+jwt")], claims: claims)
      case .malformedHeader: return try raw(header: #"{"alg":"RS256","kid":"k1""#, payload: payload, signer: key)
      case .duplicateClaim:
        let repeated = "{\"sub\":\"attacker\"," + payload.dropFirst()
        return try raw(header: #"{"alg":"RS256","kid":"k1","typ":"JWT"}"#, payload: repeated, signer: key)
      default: return try key.sign(claims: claims)
      }
    }

    func install(on router: Router<BasicRequestContext>) {
      router.get("/.well-known/jwks.json") { _, _ in
        Response.json(self.jwksText)
      }
      router.get("/authorize") { request, _ in
        let query = request.uri.queryParameters
        let sent = query["state"].map(String.init) ?? ""
        self.state.withLock { $0.nonce = query["nonce"].map(String.init) ?? "" }
        let answer: String
        switch self.defect {
        case .issInResponseWrong: answer = "code=c1&state=\(sent)&iss=https%3A%2F%2Fevil.example%2F"
        case .errorWithCode: answer = "error=access_denied&code=c1&state=\(sent)"
        case .formPostAsGet, .formPostCodeInQuery:
          // response_mode=form_post: a page whose form sends the response to the redirect URI.
          let method = self.defect == .formPostAsGet ? "get" : "post"
          let action = Self.redirect + (self.defect == .formPostCodeInQuery ? "?code=c1" : "")
          return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(
              byteBuffer: ByteBuffer(
                string:
                  "<html><body onload=\"document.forms[0].submit()\"><form method=\"\(method)\" action=\"\(action)\">"
                  + "<input type=\"hidden\" name=\"code\" value=\"c1\"><input type=\"hidden\" name=\"state\" "
                  + "value=\"\(sent)\"></form></body></html>")))
        case .implicitWithoutTokenType, .implicitMACTokenType:
          // response_type=id_token token: the tokens in the fragment.
          let type = self.defect == .implicitMACTokenType ? "&token_type=mac" : ""
          let idToken = try self.idToken() ?? ""
          return Response(
            status: .found,
            headers: [.location: "\(Self.redirect)#access_token=opaque-access\(type)&id_token=\(idToken)&state=\(sent)"]
          )
        case .hybridWithoutIDToken:
          return Response(status: .found, headers: [.location: "\(Self.redirect)#code=c1&state=\(sent)"])
        case .hybridWrongCHash, .hybridOtherSub:
          // response_type=code id_token: the code and an ID token in the fragment.
          var claims = self.claims()
          if self.defect == .hybridWrongCHash {
            claims["c_hash"] = .string("AAAAAAAAAAAAAAAAAAAAAA")
          } else {
            claims["sub"] = .string("someone-else")
          }
          let front = try self.key.sign(claims: claims)
          return Response(
            status: .found, headers: [.location: "\(Self.redirect)#code=c1&id_token=\(front)&state=\(sent)"])
        default: answer = "code=c1&state=\(sent)"
        }
        return Response(status: .found, headers: [.location: "\(Self.redirect)?\(answer)"])
      }
      router.post("/oauth/token") { request, _ in
        _ = try await request.body.collect(upTo: 1 << 16)
        switch self.defect {
        case .tokenErrorAsText:
          return Response(
            status: .badRequest, headers: [.contentType: "text/plain"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant"}"#)))
        case .tokenErrorDescriptionQuote:
          return Response.json(
            #"{"error":"invalid_grant","error_description":"code \"c1\" used"}"#, status: .badRequest)
        default: break
        }
        let idToken = try self.idToken().map { #","id_token":"\#($0)""# } ?? ""
        return Response.json("{\(self.tokenMembers)\(idToken)}")
      }
    }
  }

  /// Runs `web_auth` (with `parameters`) against a provider serving `defect`.
  static func run(_ defect: Defect, parameters: String = "{}") async throws -> ScenarioReport {
    try await run(defect, steps: "  - id: login\n    web_auth: \(parameters)")
  }

  /// `web_auth` without validation, then `validate_id_token` on the token it returned.
  static let validateAction = """
      - id: login
        web_auth: { validate_id_token: false }
      - id: check
        validate_id_token: { id_token: "${{ steps.login.id_token }}" }
    """

  /// Runs `steps` (YAML list items) against a provider serving `defect`, as a tenant of `kind`
  /// (`auth0`: Auth0.swift's rules; `oidc`: any OpenID Provider's).
  static func run(
    _ defect: Defect, steps: String, kind: TenantContext.Kind = .auth0
  ) async throws -> ScenarioReport {
    let provider = try Provider(defect)
    return try await LoopbackServer.with({ provider.install(on: $0) }) { base in
      provider.state.withLock { $0.issuer = base + "/" }
      var harness = ScenarioHarness(baseURL: base)
      harness.kind = kind
      harness.capabilities = ["implicit"]
      harness.clients = [
        "app": .object(["client_id": .string("test-client"), "redirect_uri": .string(Provider.redirect)])
      ]
      return try await harness.run(
        """
        scenario: malicious \(defect)
        client: app
        steps:
        \(steps)
        """)
    }
  }

  /// The step fails with a message containing `reason`, and no message carries a JWT.
  static func expectRejected(
    _ defect: Defect, _ reason: String, parameters: String = "{}", steps: String? = nil
  ) async throws {
    let report = try await run(defect, steps: steps ?? "  - id: login\n    web_auth: \(parameters)")
    let messages = report.steps.flatMap(\.problems).map(\.message)
    #expect(report.status == .failed, "\(defect) was accepted")
    #expect(messages.contains { $0.contains(reason) }, "\(defect): \(messages)")
    #expect(!messages.contains { $0.contains("eyJ") }, "\(defect) printed a token: \(messages)")
  }
}

@Suite("OIDC Core §3.1.3.3 Token Response Validation – malicious provider")
struct MaliciousProviderTokenResponseTests {
  @Test("A provider that answers a code exchange for `openid` without an ID token is rejected")
  func noIDToken() async throws {
    try await MaliciousProvider.expectRejected(.noIDToken, "did not include an ID token")
  }

  @Test("The same provider, well behaved, is accepted (the baseline the defects depart from)")
  func baseline() async throws {
    let report = try await MaliciousProvider.run(.wellBehaved, parameters: "{ max_age: 60, organization: org_abc }")
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }
}

@Suite("RFC 8725 §3.1 / RFC 7515 / RFC 7517 JOSE header and keys – malicious provider")
struct MaliciousProviderJOSETests {
  @Test(
    "Each forged header, key or signature is rejected with its reason",
    arguments: [
      (MaliciousProvider.Defect.algNone, #"Signature algorithm of "none" is not supported"#),
      (.hs256WithPublicKey, #"Signature algorithm of "HS256" is not supported"#),
      (.unknownKid, #"Could not find a public key for Key ID (kid) "ghost""#),
      (.signedByAnotherKey, "Invalid ID token signature"),
      (.encryptionKey, "the JWKS key 'k1' is for encryption (use: enc), not signatures"),
      (.keyOpsWithoutVerify, "key_ops [encrypt], which do not include verify"),
      (.keyForAnotherAlg, "the JWKS key 'k1' is for PS256, not the token's RS256"),
      (.criticalHeader, "'exp' critical (crit)"),
      (.accessTokenTyp, #"typ is "at+jwt""#),
      (.malformedHeader, "ID token could not be decoded"),
      (.duplicateClaim, "repeats a member name"),
      (.oversized, "more than the 65536 authflow accepts"),
    ])
  func rejected(defect: MaliciousProvider.Defect, reason: String) async throws {
    try await MaliciousProvider.expectRejected(defect, reason)
  }
}

@Suite("OIDC Core §3.1.3.7 ID Token Validation – malicious provider")
struct MaliciousProviderClaimsTests {
  @Test(
    "Each forged claim is rejected with its reason",
    arguments: [
      (MaliciousProvider.Defect.issuerWithoutSlash, "Issuer (iss) claim mismatch"),
      (.audienceWithoutClient, "expected (test-client) but was not one of (api-1, api-2)"),
      (.severalAudiencesNoAzp, "Authorized Party (azp) claim must be a string present"),
      (.wrongAzp, "Authorized Party (azp) claim mismatch"),
      (.subMissing, "Subject (sub) claim must be a string present"),
      (.nonceMissing, "Nonce (nonce) claim must be a string present"),
      (.nonceWrong, "found (attacker-nonce)"),
      (.expMissing, "Expiration time (exp) claim must be a number present"),
      (.expiredAnHourAgo, "Expiration time (exp) claim error"),
      (.nbfInTheFuture, "Not Before (nbf) is in the future"),
      (.iatMissing, "Issued At (iat) claim must be a number present"),
      (.iatInTheFuture, "Issued At (iat) is in the future"),
    ])
  func rejected(defect: MaliciousProvider.Defect, reason: String) async throws {
    try await MaliciousProvider.expectRejected(defect, reason)
  }

  @Test("auth_time is required when max_age was sent")
  func authTime() async throws {
    try await MaliciousProvider.expectRejected(
      .authTimeMissing, "Authentication Time (auth_time) claim must be a number present", parameters: "{ max_age: 60 }")
  }

  @Test("The organization requested is the organization in the token")
  func organization() async throws {
    try await MaliciousProvider.expectRejected(
      .orgIDMismatch, "expected (org_abc), found (org_evil)", parameters: "{ organization: org_abc }")
    try await MaliciousProvider.expectRejected(
      .orgNameMismatch, "expected (acme), found (evil)", parameters: "{ organization: Acme }")
  }
}

@Suite("RFC 7515 / RFC 7517 / OIDC Core through validate_id_token – malicious provider")
struct MaliciousProviderValidateActionTests {
  @Test(
    "validate_id_token on the provider's token rejects it with its reason",
    arguments: [
      (MaliciousProvider.Defect.encryptionKey, "is for encryption (use: enc)"),
      (.keyOpsWithoutVerify, "which do not include verify"),
      (.keyForAnotherAlg, "is for PS256, not the token's RS256"),
      (.signedByAnotherKey, "Invalid ID token signature"),
      (.criticalHeader, "critical (crit)"),
      (.duplicateClaim, "repeats a member name"),
      (.iatInTheFuture, "Issued At (iat) is in the future"),
      (.nbfInTheFuture, "Not Before (nbf) is in the future"),
    ])
  func rejected(defect: MaliciousProvider.Defect, reason: String) async throws {
    try await MaliciousProvider.expectRejected(defect, reason, steps: MaliciousProvider.validateAction)
  }

  @Test("validate_id_token accepts the well-behaved provider's token")
  func baseline() async throws {
    let report = try await MaliciousProvider.run(.wellBehaved, steps: MaliciousProvider.validateAction)
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }
}

@Suite("The OpenID conformance suite's checks on every step – malicious provider")
struct MaliciousProviderConformanceTests {
  @Test(
    "Each defect the suite fails a module on fails the step, naming the condition",
    arguments: [
      (MaliciousProvider.Defect.staleIssuedAt, "more than 300 seconds before the current time"),
      (.longSubject, "CheckForSubjectInIdToken"),
      (.emptyACR, "(acr) must be a non-empty string"),
      (.stringEmailVerified, "'email_verified' must be a JSON boolean"),
      (.wrongAtHash, "ValidateAtHash"),
      (.ancientAuthTime, "more than a year before"),
      (
        .tokenTypeMissing,
        "the token response has no token_type (a non-empty string is REQUIRED) (CheckForAccessTokenValue"
      ),
      (.expiresInString, "expires_in is a string, not a JSON number (ValidateExpiresIn"),
      (.expiresInZero, "expires_in is 0: the lifetime must be positive"),
      (.issInResponseWrong, "ValidateIssIfPresentInAuthorizationResponse, RFC 9207 §2.4"),
      (.errorWithCode, "RejectAuthCodeInAuthorizationEndpointResponse"),
      (.jwksPrivateMember, "publishes private key material (d) (EnsureJwksHasNoPrivateOrSymmetricKeyMaterial"),
      (.formPostAsGet, "not by POST (CheckCallbackHttpMethodIsPost, OAuth 2.0 Form Post Response Mode §2)"),
      (.formPostCodeInQuery, "RejectAuthCodeInUrlQuery, OAuth 2.0 Form Post Response Mode §2"),
    ])
  func rejected(defect: MaliciousProvider.Defect, reason: String) async throws {
    try await MaliciousProvider.expectRejected(defect, reason)
  }

  /// A JWKS key without kid is what OIDC Core §10.1 allows a one-key provider: a warning, and the
  /// sign-in holds (the conformance pack fails it, as the suite does).
  @Test func aKeyWithoutKidIsAWarning() async throws {
    let report = try await MaliciousProvider.run(.jwksWithoutKid, steps: "  - id: login\n    web_auth: {}", kind: .oidc)
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
    #expect(report.warnings.map(\.message).contains { $0.contains("CheckForKeyIdInServerJWKs") })
  }

  /// A token error response is judged even where the step expects the error (RFC 6749 §5.2): its
  /// code is what the step tests, its body's type and characters the runner's rules.
  @Test(
    "A refusal at the token endpoint must be JSON of RFC 6749's characters, even where it is expected",
    arguments: [
      (
        MaliciousProvider.Defect.tokenErrorAsText,
        "'text/plain', not application/json (CheckTokenEndpointReturnedJsonContentType"
      ),
      (.tokenErrorDescriptionQuote, "ValidateErrorDescriptionFromTokenEndpointResponseError, RFC 6749 §5.2"),
    ])
  func tokenErrors(defect: MaliciousProvider.Defect, reason: String) async throws {
    try await MaliciousProvider.expectRejected(
      defect, reason, steps: "  - id: login\n    web_auth: {}\n    expect: { error.code: invalid_grant }")
    // The well-behaved provider's refusal of the same kind passes the same step.
    let report = try await MaliciousProvider.run(
      .wellBehaved,
      steps:
        "  - id: login\n    token: { body: { grant_type: authorization_code, code: c1 } }\n    expect: { access_token: { exists: true } }"
    )
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }

  /// A provider that answers `response_mode=form_post` with a redirect does not post the response.
  @Test func formPostAnsweredByARedirect() async throws {
    try await MaliciousProvider.expectRejected(
      .wellBehaved, "the response came by a redirect to the redirect URI, not a POST (CheckCallbackHttpMethodIsPost",
      parameters: "{ parameters: { response_mode: form_post } }")
  }

  /// `response_type=id_token token` returns an access token the client can use: `access_token`
  /// and `token_type` in the fragment, the type Bearer or DPoP.
  @Test(
    "An implicit response without token_type, or of a type the UserInfo does not take, fails the step",
    arguments: [
      (
        MaliciousProvider.Defect.implicitWithoutTokenType,
        "no token_type (ExtractAccessTokenFromAuthorizationResponse, OpenID Connect Core §3.2.2.5)"
      ),
      (.implicitMACTokenType, "token_type is 'mac', neither Bearer nor DPoP (CallProtectedResource, RFC 6750 §4)"),
    ])
  func implicitTokens(defect: MaliciousProvider.Defect, reason: String) async throws {
    try await MaliciousProvider.expectRejected(defect, reason, parameters: "{ response_type: id_token token }")
    let findings = { (parameters: [String: String], type: String) in
      AuthorizationResponseRules.findings(in: parameters, issuer: "https://op.example/", responseType: type)
        .map(\.condition)
    }
    let tokens = ["access_token": "a", "token_type": "Bearer", "id_token": "x", "state": "s"]
    #expect(findings(tokens, "id_token token").isEmpty)
    #expect(findings(tokens.merging(["token_type": "DPoP"]) { $1 }, "id_token token").isEmpty)
    #expect(findings(["id_token": "x"], "id_token").isEmpty)
    #expect(findings(["id_token": "x"], "id_token token") == ["ExtractAccessTokenFromAuthorizationResponse"])
    // An error response carries no tokens, and is judged as an error.
    #expect(findings(["error": "login_required", "state": "s"], "id_token token").isEmpty)
  }

  /// A hybrid response's ID token is checked as the token endpoint's is, and names the same user.
  @Test(
    "A hybrid response's ID token missing, with a wrong c_hash, or naming another sub, fails the step",
    arguments: [
      (MaliciousProvider.Defect.hybridWrongCHash, "the authorization response's ID token: "),
      (.hybridOtherSub, "another sub than the authorization response's (VerifyIdTokenSubConsistentHybridFlow"),
      (.hybridWithoutIDToken, "the authorization response has none (ExtractIdTokenFromAuthorizationResponse"),
    ])
  func hybridIDToken(defect: MaliciousProvider.Defect, reason: String) async throws {
    try await MaliciousProvider.expectRejected(defect, reason, parameters: "{ response_type: code id_token }")
    if defect == .hybridWrongCHash {
      try await MaliciousProvider.expectRejected(
        defect, "ValidateCHash", parameters: "{ response_type: code id_token }")
    }
  }

  /// In the fragment modes no code or error travels in the query.
  @Test func fragmentResponsesKeepCodeAndErrorOutOfTheQuery() {
    let url = "https://app.example/cb?code=c1&error=access_denied#id_token=x"
    let conditions = { (mode: String?, type: String) in
      FormPostRules.findings(redirectedTo: url, responseMode: mode, responseType: type).map(\.condition)
    }
    #expect(conditions(nil, "code id_token") == ["RejectAuthCodeInUrlQuery", "RejectErrorInUrlQuery"])
    #expect(conditions(nil, "id_token") == ["RejectAuthCodeInUrlQuery", "RejectErrorInUrlQuery"])
    #expect(conditions(nil, "code").isEmpty)
    #expect(conditions("query", "id_token").isEmpty)
    #expect(conditions("form_post", "code") == ["CheckCallbackHttpMethodIsPost"])
    // A posted response: each departure named by its own condition.
    let posted = { (method: HTTPMethod, enctype: String, url: String) in
      FormPostRules.findings(
        UniversalLoginDriver.FormPostResponse(url: url, fields: ["code": "c1"], method: method, enctype: enctype)
      ).map(\.condition)
    }
    #expect(posted(.post, "application/x-www-form-urlencoded", "https://app.example/cb").isEmpty)
    #expect(
      posted(.post, "multipart/form-data", "https://app.example/cb") == ["CheckCallbackContentTypeIsFormUrlEncoded"])
    #expect(
      posted(.get, "application/x-www-form-urlencoded", "https://app.example/cb") == ["CheckCallbackHttpMethodIsPost"])
    #expect(
      posted(.post, "application/x-www-form-urlencoded", "https://app.example/cb?error=x") == ["RejectErrorInUrlQuery"])
  }

  /// A step that tests the very thing the finding is about decides it: `expect: { expires_in: … }`.
  @Test func aStepThatTestsThePathDecides() async throws {
    let report = try await MaliciousProvider.run(
      .expiresInString, steps: "  - id: login\n    web_auth: {}\n    expect: { expires_in: { exists: true } }")
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }
}
