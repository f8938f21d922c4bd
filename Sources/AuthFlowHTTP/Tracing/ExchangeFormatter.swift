public import AuthFlowCore
import Foundation

/// Renders an exchange as readable text for `--trace`:
///
/// ```
/// → POST https://tenant.example/oauth/token
///   Content-Type: application/x-www-form-urlencoded
///
///   grant_type=authorization_code&code=***&code_verifier=***
/// ← 200 (12ms)
///   Content-Type: application/json
///
///   {"access_token":"***","expires_in":86400}
/// ```
///
/// Masks sensitive headers and fields (see `SensitiveData`) unless `revealSecrets`; scrubbing the
/// secrets a run has seen elsewhere is the caller's job (`SecretRegistry.scrub`).
public struct ExchangeFormatter: Sendable {
  public var revealSecrets: Bool
  /// Longer bodies are cut, with a note of how much was left out.
  public var maxBodyLength: Int
  /// The run's secrets, scrubbed from a body before it is cut to `maxBodyLength`: a cut through
  /// a secret would otherwise leave a piece no later scrub recognises.
  public var secrets: SecretRegistry?

  public init(revealSecrets: Bool = false, maxBodyLength: Int = 2048, secrets: SecretRegistry? = nil) {
    self.revealSecrets = revealSecrets
    self.maxBodyLength = maxBodyLength
    self.secrets = secrets
  }

  public func format(_ exchange: HTTPExchange) -> String {
    let request = exchange.request
    var lines = ["→ \(request.method) \(url(request.url))"]
    lines += headerLines(request.headers)
    lines += bodyLines(request.body, contentType: request.headers["Content-Type"])
    let elapsed = DurationText.format(exchange.duration)
    switch exchange.outcome {
    case .success(let response):
      lines.append("← \(response.status) (\(elapsed))")
      lines += headerLines(response.headers)
      lines += bodyLines(response.body, contentType: response.headers["Content-Type"])
    case .failure(let error):
      lines.append(
        "✗ \(error.kind.rawValue): \(revealSecrets ? error.message : SensitiveData.maskURLs(in: error.message)) (\(elapsed))"
      )
    }
    return lines.joined(separator: "\n")
  }

  private func url(_ text: String) -> String {
    revealSecrets ? text : SensitiveData.maskURL(text)
  }

  private func headerLines(_ headers: HTTPHeaderFields) -> [String] {
    headers.map { field in
      let value =
        !revealSecrets && SensitiveData.isSensitiveHeader(field.name)
        ? SensitiveData.maskHeader(name: field.name, value: field.value)
        : field.name.caseInsensitiveEquals("Location") ? url(field.value) : field.value
      return "  \(field.name): \(value)"
    }
  }

  private func bodyLines(_ body: [UInt8], contentType: String?) -> [String] {
    guard !body.isEmpty else { return [] }
    guard let text = String(validating: body, as: UTF8.self) else {
      return ["", "  <\(Plural.count(body.count, "byte")) of binary data>"]
    }
    var shown = revealSecrets ? text : maskBody(text, contentType: contentType)
    if let secrets { shown = secrets.scrub(shown) }
    if shown.count > maxBodyLength {
      let omitted = shown.count - maxBodyLength
      shown = String(shown.prefix(maxBodyLength)) + "… (\(omitted) more characters)"
    }
    return [""] + shown.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
  }

  private func maskBody(_ text: String, contentType: String?) -> String {
    if MediaType.isForm(contentType) {
      return SensitiveData.maskParameters(text)
    }
    if MediaType.isJSON(contentType) || text.first == "{" || text.first == "[" {
      if let value = try? Value(jsonText: text) {
        return SensitiveData.maskJSON(value).jsonText()
      }
    }
    return text
  }
}

extension SensitiveData {
  /// Masks sensitive parameters of every URL-looking word in free text.
  static func maskURLs(in text: String) -> String {
    text.split(separator: " ", omittingEmptySubsequences: false).map { word in
      word.contains("?") || word.contains("#") ? maskURL(String(word)) : String(word)
    }.joined(separator: " ")
  }
}
