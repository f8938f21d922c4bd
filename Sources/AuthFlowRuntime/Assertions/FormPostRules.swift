import AuthFlowHTTP

/// What a `form_post` authorization response must be (OAuth 2.0 Form Post Response Mode §2, as
/// the OpenID conformance suite's Form Post plans check it): a POST of
/// `application/x-www-form-urlencoded` fields to the redirect URI, the response not in its URL.
enum FormPostRules {
  static func findings(_ response: UniversalLoginDriver.FormPostResponse) -> [ProtocolFinding] {
    var findings: [ProtocolFinding] = []
    if response.method != .post {
      findings.append(
        ProtocolFinding(
          "CheckCallbackHttpMethodIsPost", clause: "OAuth 2.0 Form Post Response Mode §2",
          "the form_post page sends the response by \(response.method), not by POST", path: ["authorization_response"]))
    }
    if response.enctype.lowercased() != "application/x-www-form-urlencoded" {
      findings.append(
        ProtocolFinding(
          "CheckCallbackContentTypeIsFormUrlEncoded", clause: "OAuth 2.0 Form Post Response Mode §2",
          "the form_post page sends the response as \(response.enctype), not as application/x-www-form-urlencoded",
          path: ["authorization_response"]))
    }
    return findings + queryFindings(response.url, clause: "OAuth 2.0 Form Post Response Mode §2")
  }

  /// No code (or token) and no error in the redirect URI's query, where the response mode puts
  /// them elsewhere (`RejectAuthCodeInUrlQuery`, `RejectErrorInUrlQuery`).
  private static func queryFindings(_ url: String, clause: String, because reason: String = "") -> [ProtocolFinding] {
    let query = URLParameters.query(of: url)
    var findings: [ProtocolFinding] = []
    if query["code"] != nil || query["id_token"] != nil || query["access_token"] != nil {
      findings.append(
        ProtocolFinding(
          "RejectAuthCodeInUrlQuery", clause: clause,
          "the authorization response's code or token is in the redirect URI's query\(reason)",
          path: ["authorization_response"]))
    }
    if query["error"] != nil {
      findings.append(
        ProtocolFinding(
          "RejectErrorInUrlQuery", clause: clause, "the error is in the redirect URI's query\(reason)",
          path: ["authorization_response"]))
    }
    return findings
  }

  /// A response that came by redirect: with `response_mode=form_post` it should have been posted
  /// (`CheckCallbackHttpMethodIsPost`); in the fragment (an implicit or hybrid response type, no
  /// `response_mode=query`) no code or error may travel in the query (`RejectAuthCodeInUrlQuery`,
  /// OIDC Core §3.3.2.5; `RejectErrorInUrlQuery`, OAuth 2.0 Multiple Response Types §5).
  static func findings(redirectedTo url: String, responseMode: String?, responseType: String) -> [ProtocolFinding] {
    if responseMode == "form_post" {
      return [
        ProtocolFinding(
          "CheckCallbackHttpMethodIsPost", clause: "OAuth 2.0 Form Post Response Mode §2",
          "response_mode=form_post was asked for, but the response came by a redirect to the redirect URI, not a POST",
          path: ["authorization_response"])
      ]
    }
    let types = Set(responseType.split(separator: " "))
    guard types != ["code"], !types.isEmpty, responseMode != "query" else { return [] }
    return queryFindings(
      url, clause: "OpenID Connect Core §3.3.2.5", because: ": response_type \(responseType) returns it in the fragment"
    )
  }
}
