import AuthFlowHTTP

/// What a `form_post` authorization response must be (OAuth 2.0 Form Post Response Mode §2, as
/// the OpenID conformance suite's Form Post plans check it): a POST of
/// `application/x-www-form-urlencoded` fields to the redirect URI, the response not in its URL.
enum FormPostRules {
  static func findings(_ response: UniversalLoginDriver.FormPostResponse) -> [ProtocolFinding] {
    var findings: [ProtocolFinding] = []
    if response.method != .post || response.enctype.lowercased() != "application/x-www-form-urlencoded" {
      findings.append(
        ProtocolFinding(
          "CheckCallbackHttpMethodIsPost", clause: "OAuth 2.0 Form Post Response Mode §2",
          "the form_post page sends the response by \(response.method) as \(response.enctype), not by POST as "
            + "application/x-www-form-urlencoded", path: ["authorization_response"]))
    }
    let query = URLParameters.query(of: response.url)
    if query["code"] != nil || query["error"] != nil || query["id_token"] != nil {
      findings.append(
        ProtocolFinding(
          "RejectAuthCodeInUrlQuery", clause: "OAuth 2.0 Form Post Response Mode §2",
          "the form_post response also carries the authorization response in the redirect URI's query",
          path: ["authorization_response"]))
    }
    return findings
  }
}
