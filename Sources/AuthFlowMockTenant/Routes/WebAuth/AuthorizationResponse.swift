import AuthFlowCore
import Foundation
import Hummingbird

/// How `/authorize` hands its result to the client, by `response_mode` (docs/protocol.md §2.1): a
/// redirect with the parameters in the query or the fragment, an auto-submitting form
/// (`form_post`), or a page that posts a message to the opener or parent (`web_message`, what
/// auth0-spa-js uses for silent authentication in an iframe). Every value is escaped for the
/// context it lands in.
enum AuthorizationResponse {
  static let modes: Set<String> = ["query", "fragment", "form_post", "web_message"]

  /// The response carrying `pairs` for `request`, with `cookies`.
  static func deliver(_ pairs: [(String, String)], for request: AuthorizeRequest, cookies: [Cookie]) -> Response {
    var response: Response
    switch request.responseMode {
    case "form_post":
      response = Responses.html(formPost(pairs, to: request.redirectURI))
    case "web_message":
      let origin = origin(of: request.redirectURI) ?? "'none'"
      response = Responses.html(webMessage(pairs, origin: origin), frameAncestors: origin)
    default:
      return Responses.redirect(
        FormEncoding.append(pairs, to: request.redirectURI, fragment: request.responseMode == "fragment"),
        cookies: cookies)
    }
    for cookie in cookies { response.setCookie(cookie) }
    return response
  }

  /// `scheme://host[:port]` of an http(s) URL; nil for anything else.
  static func origin(of url: String) -> String? {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
      scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty
    else { return nil }
    return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
  }

  static func formPost(_ pairs: [(String, String)], to action: String) -> String {
    let fields = pairs.map { name, value in
      "<input type=\"hidden\" name=\"\(HTML.escape(name))\" value=\"\(HTML.escape(value))\">"
    }.joined(separator: "\n  ")
    return LoginPages.page(
      title: "Submit This Form", kind: "form-post",
      body: """
        <form method="post" name="hiddenform" action="\(HTML.escape(action))">
          \(fields)
          <noscript><p>Script is disabled. Click Submit to continue.</p><input type="submit" value="Submit"></noscript>
        </form>
        <script>document.forms[0].submit();</script>
        """)
  }

  static func webMessage(_ pairs: [(String, String)], origin: String) -> String {
    var response: [String: Value] = [:]
    for (name, value) in pairs { response[name] = .string(value) }
    let message = Value.object(["type": .string("authorization_response"), "response": .object(response)])
    return LoginPages.page(
      title: "Authorization Response", kind: "web-message",
      body: """
        <script>
        (function (window) {
          var targetOrigin = \(scriptLiteral(.string(origin)));
          var authorizationResponse = \(scriptLiteral(message));
          var target = window.opener ? window.opener : window.parent;
          target.postMessage(authorizationResponse, targetOrigin);
        })(this);
        </script>
        """)
  }

  /// JSON that is safe inside a `<script>` element: no `<`, `>` or `&` (so no `</script>` or
  /// `<!--`), and no line separators that end a JavaScript string.
  static func scriptLiteral(_ value: Value) -> String {
    var output = ""
    for scalar in value.jsonText(revealSecrets: true).unicodeScalars {
      switch scalar {
      case "<": output += "\\u003c"
      case ">": output += "\\u003e"
      case "&": output += "\\u0026"
      case "\u{2028}": output += "\\u2028"
      case "\u{2029}": output += "\\u2029"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
