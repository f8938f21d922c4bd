import AuthFlowCore
import AuthFlowHTTP

/// What every successful token response must hold, as the OpenID conformance suite checks it on
/// every module: `access_token` and `token_type` present (`CheckForAccessTokenValue`, RFC 6749
/// §5.1), and `expires_in`, when present, a positive number of at most a year (`ValidateExpiresIn`,
/// RFC 6749 §5.1); and what an error response must hold (RFC 6749 §5.2): a JSON body
/// (`CheckTokenEndpointReturnedJsonContentType`), an `error` of the characters RFC 6749 allows
/// (`ValidateErrorFromTokenEndpointResponseError`), and an `error_description` and `error_uri` of
/// theirs.
enum TokenResponseRules {
  /// The longest `expires_in` accepted: a year, in seconds.
  static let longestExpiresIn = 31_536_000

  /// The rules the token response `members` (its JSON body) breaks.
  static func findings(in members: [String: Value]) -> [ProtocolFinding] {
    var findings: [ProtocolFinding] = []
    for name in ["access_token", "token_type"] where !isText(members[name]) {
      findings.append(
        ProtocolFinding(
          "CheckForAccessTokenValue", clause: "RFC 6749 §5.1",
          "the token response has no \(name) (a non-empty string is REQUIRED)", path: [name]))
    }
    if let expiresIn = members["expires_in"], !expiresIn.isNull {
      let problem: String?
      switch expiresIn.unwrapped {
      case .int(let seconds): problem = check(Double(seconds))
      case .double(let seconds): problem = check(seconds)
      default:
        problem = "expires_in is \(expiresIn.typeName == "string" ? "a string" : expiresIn.typeName), not a JSON number"
      }
      if let problem {
        findings.append(ProtocolFinding("ValidateExpiresIn", clause: "RFC 6749 §5.1", problem, path: ["expires_in"]))
      }
    }
    return findings
  }

  /// The rules a token endpoint error `response` (a 4xx) breaks. Only OAuth error bodies are
  /// judged (a JSON object with `error`); another body is the step's `error` already
  /// (`a0.sdk.internal_error.*`).
  static func errorFindings(in response: HTTPResponse) -> [ProtocolFinding] {
    guard (400..<500).contains(response.status), let members = response.jsonValue?.objectValue,
      let error = members["error"]
    else { return [] }
    var findings: [ProtocolFinding] = []
    if response.mediaType != "application/json" {
      let type = response.headers["Content-Type"].map { "'\($0)'" } ?? "missing"
      findings.append(
        ProtocolFinding(
          "CheckTokenEndpointReturnedJsonContentType", clause: "RFC 6749 §5.2",
          "the error response's Content-Type is \(type), not application/json", path: ["error", "body"]))
    }
    findings += ErrorResponseRules.findings(
      error: error.stringValue, description: members["error_description"]?.stringValue,
      uri: members["error_uri"]?.stringValue, at: .token)
    return findings
  }

  private static func check(_ seconds: Double) -> String? {
    if seconds <= 0 { return "expires_in is \(format(seconds)): the lifetime must be positive" }
    if seconds > Double(longestExpiresIn) {
      return "expires_in is \(format(seconds)) seconds, more than a year (\(longestExpiresIn))"
    }
    return nil
  }

  private static func format(_ seconds: Double) -> String {
    seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
  }

  private static func isText(_ value: Value?) -> Bool {
    guard let text = value?.stringValue else { return false }
    return !text.isEmpty
  }
}
