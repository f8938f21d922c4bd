import AuthFlowCore
import AuthFlowExpression
import AuthFlowJOSE
import Foundation

/// `claims_problem(claims)`: what is wrong with a UserInfo response (or any claims object) as
/// OpenID Connect Core fixes it, as the OpenID conformance suite checks one: the standard claims
/// of their OIDC Core §5.1 types (`ValidateUserInfoStandardClaims`), a `sub`
/// (`EnsureUserInfoContainsSub`, OIDC Core §5.3.2), an `updated_at` neither before 1990 nor in the
/// future (`EnsureUserInfoUpdatedAtValid`), and `_claim_names` and `_claim_sources` that name each
/// other (OIDC Core §5.6.2); null when nothing is.
/// Strict: Auth0's `updated_at` string is a problem here, as it is to the suite.
struct ClaimsProblemFunction: ExpressionFunction {
  static let name = "claims_problem"
  static let arity = 1...1
  static let signature = "claims_problem(claims)"
  static let summary =
    "What breaks OpenID Connect Core's rules for a UserInfo response's claims (types, sub, updated_at, "
    + "distributed claims), naming the conformance suite's condition; null when nothing does."
  static let examples = [
    FunctionExample(#"claims_problem(json('{"sub": "u1", "email_verified": true}'))"#, nil),
    FunctionExample(
      #"claims_problem(json('{"sub": "u1", "email_verified": "true"}'))"#,
      "'email_verified' must be a JSON boolean (not a string) (ValidateUserInfoStandardClaims, OpenID Connect Core §5.1)"
    ),
    FunctionExample(
      #"claims_problem(json('{"name": "A"}'))"#,
      "sub is missing (EnsureUserInfoContainsSub, OpenID Connect Core §5.3.2)"),
  ]

  /// 1990-01-01T00:00:00Z: an `updated_at` before it is taken for a wrong unit.
  static let earliestUpdate = 631_152_000.0

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    guard let claims = arguments[0].objectValue else {
      throw .argumentType(function: Self.name, position: 1, expected: "an object", got: arguments[0])
    }
    let now = context.now()
    if let (claim, expected) = StandardClaims.firstProblem(in: claims, now: Date(timeIntervalSince1970: now)) {
      return .string("'\(claim)' must be \(expected) (ValidateUserInfoStandardClaims, OpenID Connect Core §5.1)")
    }
    guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else {
      return .string("sub is missing (EnsureUserInfoContainsSub, OpenID Connect Core §5.3.2)")
    }
    if let updated = claims["updated_at"]?.doubleValue {
      if updated > now + 300 {
        return .string("updated_at is in the future (EnsureUserInfoUpdatedAtValid, OpenID Connect Core §5.1)")
      }
      if updated < Self.earliestUpdate {
        return .string("updated_at is before 1990 (EnsureUserInfoUpdatedAtValid, OpenID Connect Core §5.1)")
      }
    }
    let names = claims["_claim_names"]?.objectValue
    let sources = claims["_claim_sources"]?.objectValue
    if (names == nil) != (sources == nil) {
      return .string(
        "_claim_names and _claim_sources must come together (EnsureMemberValuesInClaimNameReferenceToMemberNamesInClaimSources, "
          + "OpenID Connect Core §5.6.2)")
    }
    if let names, let sources {
      let referenced = Set(names.values.compactMap(\.stringValue))
      if let unreferenced = sources.keys.sorted().first(where: { !referenced.contains($0) }) {
        return .string(
          "_claim_sources has '\(unreferenced)', which no _claim_names member names "
            + "(EnsureMemberValuesInClaimNameReferenceToMemberNamesInClaimSources, OpenID Connect Core §5.6.2)")
      }
    }
    return .null
  }
}
