import AuthFlowCore
import AuthFlowHTTP
import Foundation

/// A request to a tenant's token or revocation endpoint, encoded as the tenant expects it, the
/// client authenticating as ``ClientAuthentication`` decides (the decision `doctor` reports).
///
/// - `mock` and `auth0`: a JSON body, as Auth0.swift sends it (docs/protocol.md §1); `client_id` and
///   `client_secret` in it unless the profile names another method.
/// - `oidc`: an `application/x-www-form-urlencoded` body (RFC 6749 §4.1.3); by default HTTP Basic
///   (the OpenID default), or what discovery lists or the profile names.
enum OAuthRequest {
  /// The request to POST `body` to `url` on the context's tenant.
  static func make(
    url: String, body: [String: Value], headers: HTTPHeaderFields = [:], context: ActionContext
  ) -> HTTPRequest {
    var fields = body
    var headers = headers
    switch ClientAuthentication.resolve(context).method {
    case .clientSecretBasic:
      if let id = fields["client_id"]?.stringValue, let secret = fields["client_secret"]?.stringValue {
        let credentials = ClientAuthentication.basicCredentials(id: id, secret: secret)
        context.secrets.register(credentials)
        headers["Authorization"] = "Basic \(credentials)"
        fields["client_id"] = nil
        fields["client_secret"] = nil
      }
    case .none:
      fields["client_secret"] = nil
    case .clientSecretPost:
      break
    }
    switch context.tenant.wireFormat {
    case .json:
      return HTTPRequest.json(.post, url: url, body: .object(fields), headers: headers)
    case .form:
      return HTTPRequest.form(url: url, fields: formFields(fields), headers: headers)
    }
  }

  /// Body members as form fields, in name order; nulls left out, strings as they are, other
  /// values as JSON text (secrets revealed: this goes on the wire).
  static func formFields(_ body: [String: Value]) -> URLParameters {
    URLParameters(
      body.keys.sorted().compactMap { key -> (String, String)? in
        guard let value = body[key], !value.isNull else { return nil }
        return (key, value.stringValue ?? value.jsonText(revealSecrets: true))
      })
  }
}
