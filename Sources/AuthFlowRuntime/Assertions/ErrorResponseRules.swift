/// What an OAuth error response's members must be, at either endpoint (RFC 6749 §4.1.2.1 for the
/// authorization endpoint, RFC 6749 §5.2 for the token endpoint), as the OpenID conformance suite checks
/// them: `error` and `error_description` of RFC 6749's characters (a tab or line break in the
/// description a separate warning), `error_uri` an absolute URI of its characters. The suite names
/// each condition after the endpoint (`ValidateErrorDescriptionFromTokenEndpointResponseError`).
enum ErrorResponseRules {
  enum Endpoint {
    case authorization, token

    /// The suite's word for it in condition names.
    var conditionName: String { self == .authorization ? "AuthorizationEndpoint" : "TokenEndpoint" }
    var clause: String { self == .authorization ? "RFC 6749 §4.1.2.1" : "RFC 6749 §5.2" }
    /// Where each member sits in a step's result.
    func path(_ member: String) -> [String] {
      switch self {
      case .authorization: return ["authorization_response", member]
      case .token:
        return ["error", ["error": "code", "error_description": "description"][member] ?? "body"]
      }
    }
  }

  /// The findings about `error` (when `checkingError`; the authorization response's is checked by
  /// the step's own `error.code`), `error_description` and `error_uri`.
  static func findings(
    error: String?, description: String?, uri: String?, at endpoint: Endpoint, checkingError: Bool = true
  ) -> [ProtocolFinding] {
    var findings: [ProtocolFinding] = []
    let name = endpoint.conditionName
    if checkingError, (error ?? "").isEmpty || !(error ?? "").unicodeScalars.allSatisfy(isErrorCharacter) {
      findings.append(
        ProtocolFinding(
          "ValidateErrorFrom\(name)ResponseError", clause: endpoint.clause,
          "error is not a non-empty string of the characters %x20-21 / %x23-5B / %x5D-7E",
          path: endpoint.path("error")))
    }
    if let description {
      if description.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\t" }) {
        findings.append(
          ProtocolFinding(
            "CheckErrorDescriptionFrom\(name)ResponseErrorContainsCRLFTAB", clause: endpoint.clause,
            "error_description contains a line break or a tab", severity: .warning,
            path: endpoint.path("error_description")))
      }
      if !description.unicodeScalars.allSatisfy(isDescriptionCharacter) {
        findings.append(
          ProtocolFinding(
            "ValidateErrorDescriptionFrom\(name)ResponseError", clause: endpoint.clause,
            "error_description has characters outside %x20-21 / %x23-5B / %x5D-7E",
            path: endpoint.path("error_description")))
      }
    }
    if let uri, !(uri.contains("://") && uri.unicodeScalars.allSatisfy(isURICharacter)) {
      findings.append(
        ProtocolFinding(
          "ValidateErrorUriFrom\(name)ResponseError", clause: endpoint.clause,
          "error_uri is not an absolute URI of the characters %x21 / %x23-5B / %x5D-7E",
          path: endpoint.path("error_uri")))
    }
    return findings
  }

  /// `error_description`'s characters, with the tab and line breaks the conformance suite lets
  /// through to its separate warning.
  static func isDescriptionCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D, 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: return true
    default: return false
    }
  }

  /// `error`'s characters.
  static func isErrorCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: return true
    default: return false
    }
  }

  /// `error_uri`'s characters.
  static func isURICharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x21, 0x23...0x5B, 0x5D...0x7E: return true
    default: return false
    }
  }
}
