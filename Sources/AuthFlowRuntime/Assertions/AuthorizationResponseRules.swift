import AuthFlowCore
import AuthFlowHTTP

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
    if let description = parameters["error_description"] {
      if description.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\t" }) {
        findings.append(
          ProtocolFinding(
            "CheckErrorDescriptionFromAuthorizationEndpointResponseErrorContainsCRLFTAB", clause: "RFC 6749 §4.1.2.1",
            "error_description contains a line break or a tab", severity: .warning,
            path: ["authorization_response", "error_description"]))
      }
      if !description.unicodeScalars.allSatisfy(isDescriptionCharacter) {
        findings.append(
          ProtocolFinding(
            "ValidateErrorDescriptionFromAuthorizationEndpointResponseError", clause: "RFC 6749 §4.1.2.1",
            "error_description has characters outside %x20-21 / %x23-5B / %x5D-7E",
            path: ["authorization_response", "error_description"]))
      }
    }
    if let uri = parameters["error_uri"] {
      let absolute = URLSecurity.httpScheme(of: uri) != nil || uri.contains("://")
      if !absolute || !uri.unicodeScalars.allSatisfy(isURICharacter) {
        findings.append(
          ProtocolFinding(
            "ValidateErrorUriFromAuthorizationEndpointResponseError", clause: "RFC 6749 §4.1.2.1",
            "error_uri is not an absolute URI of the characters %x21 / %x23-5B / %x5D-7E",
            path: ["authorization_response", "error_uri"]))
      }
    }
    return findings
  }

  /// `error_description`'s characters (RFC 6749 §4.1.2.1), with the tab and line breaks the
  /// conformance suite lets through to its separate warning.
  static func isDescriptionCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D, 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: return true
    default: return false
    }
  }

  /// `error`'s characters (RFC 6749 §4.1.2.1, §5.2).
  static func isErrorCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: return true
    default: return false
    }
  }

  static func isURICharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x21, 0x23...0x5B, 0x5D...0x7E: return true
    default: return false
    }
  }
}
