import AuthFlowCore

/// What an authorization response must hold, as the OpenID conformance suite checks it on every
/// module: an `iss`, when present, that is the issuer (`ValidateIssIfPresentInAuthorizationResponse`,
/// RFC 9207 §2.4); and an error response (OIDC Core §3.1.2.6, RFC 6749 §4.1.2.1) with no `code`
/// beside the `error` (`RejectAuthCodeInAuthorizationEndpointResponse`), no parameters but the
/// error's (`CheckForUnexpectedParametersInErrorResponseFromAuthorizationEndpoint`, a warning),
/// and an `error_description` and `error_uri` of the characters RFC 6749 allows them. The state is
/// checked before these (an unechoed or changed `state` fails the step as "Invalid callback URL").
/// A response type with `token` (the implicit and hybrid flows) returns an `access_token` and a
/// `token_type` (`ExtractAccessTokenFromAuthorizationResponse`, OIDC Core §3.2.2.5), of a type the
/// suite can call the UserInfo with, Bearer or DPoP (`CallProtectedResource`, RFC 6750 §4).
enum AuthorizationResponseRules {
  /// The parameters an error response may carry.
  static let errorParameters: Set<String> = [
    "error", "error_description", "error_uri", "state", "session_state", "iss",
  ]

  static func findings(
    in parameters: [String: String], issuer: String, responseType: String = "code"
  )
    -> [ProtocolFinding]
  {
    var findings: [ProtocolFinding] = []
    if parameters["error"] == nil, responseType.split(separator: " ").contains("token") {
      findings += tokenFindings(parameters, responseType: responseType)
    }
    if let iss = parameters["iss"], iss != issuer {
      findings.append(
        ProtocolFinding(
          "ValidateIssIfPresentInAuthorizationResponse", clause: "RFC 9207 §2.4",
          "the authorization response's iss is '\(iss)', not the issuer '\(issuer)' (a mix-up attack would look "
            + "like this)", path: ["authorization_response", "iss"]))
    }
    guard parameters["error"] != nil else { return findings }
    if parameters["code"] != nil {
      findings.append(
        ProtocolFinding(
          "RejectAuthCodeInAuthorizationEndpointResponse", clause: "OpenID Connect Core §3.1.2.6",
          "the error response carries an authorization code beside its error", path: ["authorization_response", "code"])
      )
    }
    let unexpected = parameters.keys.filter { !errorParameters.contains($0) }.sorted()
    if !unexpected.isEmpty {
      findings.append(
        ProtocolFinding(
          "CheckForUnexpectedParametersInErrorResponseFromAuthorizationEndpoint",
          clause: "OpenID Connect Core §3.1.2.6",
          "the error response carries parameters an error response does not have: "
            + unexpected.joined(separator: ", "), severity: .warning, path: ["authorization_response"]))
    }
    findings += ErrorResponseRules.findings(
      error: parameters["error"], description: parameters["error_description"], uri: parameters["error_uri"],
      at: .authorization, checkingError: false)
    return findings
  }

  /// The access token of a response type with `token`: there, with a token type the UserInfo
  /// takes.
  private static func tokenFindings(_ parameters: [String: String], responseType: String) -> [ProtocolFinding] {
    let missing = ["access_token", "token_type"].filter { (parameters[$0] ?? "").isEmpty }
    if !missing.isEmpty {
      return [
        ProtocolFinding(
          "ExtractAccessTokenFromAuthorizationResponse", clause: "OpenID Connect Core §3.2.2.5",
          "response_type \(responseType) returns an access token, but the authorization response has no "
            + missing.joined(separator: " and "), path: ["authorization_response", missing[0]])
      ]
    }
    guard let type = parameters["token_type"], !["bearer", "dpop"].contains(type.lowercased()) else { return [] }
    return [
      ProtocolFinding(
        "CallProtectedResource", clause: "RFC 6750 §4",
        "the authorization response's token_type is '\(type)', neither Bearer nor DPoP",
        path: ["authorization_response", "token_type"])
    ]
  }
}
