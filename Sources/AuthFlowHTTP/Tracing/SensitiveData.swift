public import AuthFlowCore

/// The header and field names whose values traces mask, whatever the secret registry knows.
public enum SensitiveData {
  /// Headers whose values are masked (the auth scheme and cookie names stay visible).
  public static let headerNames: Set<String> = ["authorization", "cookie", "set-cookie", "dpop", "proxy-authorization"]

  /// Form, JSON and URL parameter names whose values are masked: the one shared list.
  public static var fieldNames: Set<String> { SecretFieldNames.all }

  /// True when a header's value is masked.
  public static func isSensitiveHeader(_ name: String) -> Bool {
    headerNames.contains(name.lowercased())
  }

  /// True when a field's value is masked.
  public static func isSensitiveField(_ name: String) -> Bool {
    fieldNames.contains(name.lowercased())
  }

  /// Masks a header value: `Bearer ***`, `sid=***; theme=***`, `sid=***; Path=/; HttpOnly`.
  public static func maskHeader(name: String, value: String) -> String {
    switch name.lowercased() {
    case "authorization", "proxy-authorization":
      let parts = value.split(separator: " ", maxSplits: 1)
      return parts.count == 2 ? "\(parts[0]) \(Redaction.mask)" : Redaction.mask
    case "cookie":
      return value.split(separator: ";").map { maskPair($0) }.joined(separator: "; ")
    case "set-cookie":
      var parts = value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
      if let first = parts.first { parts[0] = maskPair(Substring(first)) }
      return parts.joined(separator: ";")
    default:
      return Redaction.mask
    }
  }

  /// Masks sensitive parameters in a URL's query and fragment, leaving the encoding of the rest.
  public static func maskURL(_ url: String) -> String {
    let (base, query, fragment) = URLParts.split(url)
    var result = String(base)
    if let query { result += "?" + maskParameters(query) }
    if let fragment { result += "#" + maskParameters(fragment) }
    return result
  }

  /// The values of sensitive parameters (`code`, `access_token`, …) in a URL's query and fragment,
  /// raw and percent-decoded, so a secret registry can scrub them from any output.
  public static func sensitiveValues(inURL url: String) -> [String] {
    let (_, query, fragment) = URLParts.split(url)
    var values: [String] = []
    for text in [query, fragment].compactMap({ $0 }) {
      for segment in text.split(separator: "&") {
        let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, isSensitiveField(PercentEncoding.decode(parts[0], plusAsSpace: true)) else { continue }
        values.append(String(parts[1]))
        values.append(PercentEncoding.decode(parts[1], plusAsSpace: false))
      }
    }
    return values.filter { !$0.isEmpty }
  }

  /// Masks sensitive pairs of `a=1&b=2` text, leaving the encoding of the rest.
  public static func maskParameters(_ text: some StringProtocol) -> String {
    text.split(separator: "&", omittingEmptySubsequences: false).map { segment -> String in
      let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, isSensitiveField(PercentEncoding.decode(parts[0], plusAsSpace: true)) else {
        return String(segment)
      }
      return "\(parts[0])=\(Redaction.mask)"
    }.joined(separator: "&")
  }

  /// Masks sensitive members of a JSON value, at any depth; an error object's `code` is evidence
  /// and stays.
  public static func maskJSON(_ value: Value) -> Value {
    switch value {
    case .object(let members):
      var masked: [String: Value] = [:]
      for (key, member) in members {
        masked[key] =
          SecretFieldNames.isSecretMember(key, siblings: members.keys) && !member.isNull
          ? .string(Redaction.mask) : maskJSON(member)
      }
      return .object(masked)
    case .array(let items): return .array(items.map(maskJSON))
    default: return value
    }
  }

  private static func maskPair(_ pair: Substring) -> String {
    let trimmed = pair.drop { $0 == " " }
    guard let equals = trimmed.firstIndex(of: "=") else { return Redaction.mask }
    return "\(trimmed[..<equals])=\(Redaction.mask)"
  }
}
