import AuthFlowCore
import AuthFlowJOSE

/// ID-token validation (docs/protocol.md §5) with the run's JWKS cache: the keys are fetched once per
/// tenant and refetched once when the token's `kid` is unknown; a fetch failure gives the
/// docs/protocol.md §5 /// "Could not find a public key" error, as Auth0.swift reports it.
enum IDTokenCheck {
  /// Web Auth's leeway. Auth0.swift stores `60 * 1000` and adds it as seconds (docs/protocol.md §5 quirk: a token
  /// expired 16 hours ago passes); authflow does not follow it and uses the 60 s of `validateClaims()`
  /// (docs/id-token-validation.md). A step can still give `leeway: 60000`.
  static let webAuthLeeway = 60
  /// `validateClaims()` without `withLeeway`.
  static let defaultLeeway = 60

  /// The first failure, or nil when the token is valid.
  static func failure(
    of token: String, options: IDTokenValidator.Options, context: ActionContext
  ) async -> IDTokenValidationError? {
    // Decoded once: the header names the key, then the same value is validated.
    guard let jws = try? CompactJWS(parsing: token),
      let algorithm = jws.algorithmName.flatMap(JWSAlgorithm.init(rawValue:)), algorithm.keyType != nil,
      !algorithm.isSymmetric
    else {
      // Decode and alg failures come before any key is needed; an HMAC token is checked with
      // the client secret, not a key of the JWKS.
      do {
        try IDTokenValidator(jwks: JWKSet(keys: []), options: options).validate(token)
        return nil
      } catch {
        return error
      }
    }
    let validator: IDTokenValidator
    do {
      let keys = try await context.services.jwks.keys(
        for: context.tenant, transport: context.transport, kid: jws.keyID)
      context.report(findings(of: keys))
      validator = IDTokenValidator(keys: keys, options: options)
    } catch {
      return .missingPublicKey(kid: jws.keyID ?? "")
    }
    do {
      try validator.validate(jws)
      return nil
    } catch {
      return error
    }
  }

  /// What the tenant's JWKS breaks (``AuthFlowJOSE/JWKSRules``), as findings of the step that
  /// verified a token with it: failures where the conformance suite fails, but a missing or
  /// repeated `kid`, which the spec needs only to choose among keys (OIDC Core §10.1), a warning
  /// (the conformance pack's modules fail on it, as the suite does).
  static func findings(of keys: VerificationKeys) -> [ProtocolFinding] {
    keys.documentProblems.map { problem in
      ProtocolFinding(
        problem.condition, clause: problem.clause, "the JWKS: \(problem.message)",
        severity: problem.isFailure && !problem.isAboutKeyIDs ? .error : .warning, path: ["jwks"])
    }
  }

  /// Validates the result's `id_token` and records `id_token_valid` / `id_token_error` (and the
  /// token's `signature_valid`) in it.
  static func apply(
    to result: inout [String: Value], options: IDTokenValidator.Options, context: ActionContext
  ) async {
    guard case .jwt(var token)? = result["id_token"] else {
      if let raw = result["id_token"]?.unwrapped.stringValue {
        let error = await failure(of: raw, options: options, context: context)
        result["id_token_valid"] = .bool(error == nil)
        result["id_token_error"] = error.map { .string($0.message) } ?? .null
      }
      return
    }
    let error = await failure(of: token.raw, options: options, context: context)
    token.signatureValid = error.map { !$0.isSignatureFailure } ?? true
    result["id_token"] = .jwt(token)
    result["id_token_valid"] = .bool(error == nil)
    result["id_token_error"] = error.map { .string($0.message) } ?? .null
  }
}
