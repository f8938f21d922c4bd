import AuthFlowCore
import AuthFlowJOSE
import AuthFlowScenario

/// Opt-in ID-token validation (docs/protocol.md §5, Auth0.swift's `validateClaims()`) for the actions that
/// return credentials outside Web Auth (those whose ``ActionTraits/idTokenOptIn`` is set). Web
/// Auth validates automatically; these only when the step says `validate_id_token: true`.
///
/// The checks are the `validate_id_token` action's: the tenant's issuer, the client's `client_id`
/// as audience, `nonce` / `max_age` when the step's parameters give them, leeway 60 s (or `leeway`). The result gains
/// `id_token_valid` and `id_token_error` (as Web Auth's does), and a failure fails the step with
/// docs/protocol.md §5's message unless `expect` names `id_token_valid` or `id_token_error`. A success without an
/// `id_token` is a failure too (`ID token validation was requested but …`).
enum IDTokenOptIn {
  static let validateIDToken = Parameter<Bool>(
    "validate_id_token",
    summary: "Validate the returned ID token as docs/protocol.md §5 says (default false); sets `id_token_valid`.")
  static let nonce = Parameter<String>("nonce", summary: "With `validate_id_token`: the expected `nonce`.")
  static let maxAge = Parameter<Int>("max_age", summary: "With `validate_id_token`: seconds; checks `auth_time`.")
  static let leeway = Parameter<Int>(
    "leeway", summary: "With `validate_id_token`: clock skew in seconds (default 60).")

  /// The parameters each of those actions declares.
  static let parameters: [any ParameterDeclaration] = [validateIDToken, nonce, maxAge, leeway]

  /// Validates the outcome's `id_token` when the step opted in; anything else passes unchanged.
  /// Called for the actions whose ``ActionTraits/idTokenOptIn`` is set (``Action/completing(_:parameters:context:)``).
  static func apply(to outcome: ActionOutcome, parameters: Value, context: ActionContext) async -> ActionOutcome {
    let input = Parameters(parameters)
    guard (try? input[validateIDToken]) == true, case .success(let value) = outcome, var result = value.objectValue
    else { return outcome }
    guard result["id_token"].map({ !$0.isNull }) == true else {
      result["id_token_valid"] = .bool(false)
      result["id_token_error"] = .string(IDTokenValidationError.missing.message)
      return .success(.object(result))
    }
    let clientID = context.client.clientID ?? ""
    let options = IDTokenValidator.Options(
      issuer: context.tenant.issuer, clientID: clientID, nonce: (try? input[nonce]) ?? nil,
      maxAge: (try? input[maxAge]) ?? nil, organization: nil,
      leeway: ((try? input[leeway]) ?? nil) ?? IDTokenCheck.defaultLeeway,
      algorithms: context.tenant.idTokenAlgorithms, clientSecret: context.client.clientSecret,
      accessToken: result["access_token"]?.stringValue)
    await IDTokenCheck.apply(to: &result, options: options, context: context)
    return .success(.object(result))
  }
}
