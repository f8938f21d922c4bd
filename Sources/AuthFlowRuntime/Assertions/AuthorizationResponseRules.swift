import AuthFlowCore

/// What an authorization response must hold, as the OpenID conformance suite checks it on every
/// module: an `iss`, when present, that is the issuer (`ValidateIssIfPresentInAuthorizationResponse`,
/// RFC 9207 §2.4); and an error response (OIDC Core §3.1.2.6, RFC 6749 §4.1.2.1) with no `code`
/// beside the `error` (`RejectAuthCodeInAuthorizationEndpointResponse`), no parameters but the
/// error's (`CheckForUnexpectedParametersInErrorResponseFromAuthorizationEndpoint`, a warning),
/// and an `error_description` and `error_uri` of the characters RFC 6749 allows them. The state is
/// checked before these (an unechoed or changed `state` fails the step as "Invalid callback URL").
enum AuthorizationResponseRules {
  /// The parameters an error response may carry.
  static let errorParameters: Set<String> = [
    "error", "error_description", "error_uri", "state", "session_state", "iss",
  ]

  static func findings(in parameters: [String: String], issuer: String) -> [ProtocolFinding] {
    var findings: [ProtocolFinding] = []
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
}
