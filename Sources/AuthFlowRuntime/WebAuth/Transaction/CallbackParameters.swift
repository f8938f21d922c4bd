import AuthFlowCore
import AuthFlowHTTP

/// The values of a callback URL as Auth0.swift reads them (docs/protocol.md §2.2): fragment and query
/// merged, query winning; fragment values split on `&` and `=` and **not** percent-decoded.
struct CallbackParameters: Sendable {
  var values: [String: String]
  /// The callback URL as the browser was sent to it.
  var url: String

  init(url: String) {
    self.url = url
    var values = URLParameters.fragment(of: url, decoding: .none).dictionary
    for pair in URLParameters.query(of: url) {
      values[pair.name] = pair.value
    }
    self.values = values
  }

  /// The values of a `form_post` response: the posted fields (`url`, the form's action).
  init(posted fields: [String: String], to url: String) {
    self.url = url
    self.values = fields
  }

  subscript(name: String) -> String? { values[name] }

  /// The parameters as a step result (`authorization_response`): credentials (the code, tokens)
  /// secret, the rest as sent.
  /// The callback URL without its query and fragment: where the response was sent, no secret in it.
  var uri: String {
    String(url.prefix { $0 != "?" && $0 != "#" })
  }

  var value: Value {
    // `code` stays secret even beside an `error` (a provider that sends both still sent a code).
    .object(
      Dictionary(
        uniqueKeysWithValues: values.map { name, value in
          (name, SecretFieldNames.all.contains(name.lowercased()) ? Value.string(value).asSecret : .string(value))
        }))
  }

  /// The values that are credentials (the code, tokens), raw and as the URL carries them: each
  /// is registered as a secret before the URL is shown anywhere.
  var secrets: [String] {
    let names = ["code", "access_token", "id_token", "refresh_token"]
    return Array(Set(names.compactMap { values[$0] } + SensitiveData.sensitiveValues(inURL: url)))
      .filter { !$0.isEmpty }.sorted()
  }

  /// The callback's `error` as a protocol error (status 302, the callback's items as `body`).
  var protocolError: ProtocolError? {
    guard let code = values["error"] else { return nil }
    return ProtocolError(
      code: code, description: values["error_description"], status: 302,
      body: Value.object(values.mapValues(Value.string)).taggingSecrets())
  }

  /// Nil when `state` matches the one sent; else the "Invalid callback URL" message. A request
  /// object's refusal may come without the state that was sent only inside it (OpenID Connect
  /// Core §6.3; the conformance suite's `CheckStateInAuthorizationResponse` admits it).
  func stateMismatch(expected: String, url: String, inRequestObject: Bool = false) -> String? {
    if values["state"] == expected { return nil }
    if inRequestObject, values["state"] == nil, let error = values["error"],
      Self.requestObjectErrors.contains(error)
    {
      return nil
    }
    if inRequestObject, values["state"] == nil {
      return WebAuthMessages.invalidCallback(url) + WebAuthMessages.requestObjectIgnored
    }
    return WebAuthMessages.invalidCallback(url)
  }

  /// The errors that refuse a request object (OpenID Connect Core §6.3).
  static let requestObjectErrors: Set<String> = [
    "request_not_supported", "request_uri_not_supported", "invalid_request_object", "invalid_request_uri",
  ]
}
