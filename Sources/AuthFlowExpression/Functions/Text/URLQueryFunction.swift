import AuthFlowCore
import Foundation

/// `url_query(url, name)`: a parameter of a URL's query or fragment.
struct URLQueryFunction: ExpressionFunction {
  static let name = "url_query"
  static let arity = 2...2
  static let signature = "url_query(url, name)"
  static let summary =
    "A query (or else fragment) parameter of a URL, decoded; null when absent. Codes and tokens are secret."
  static let examples = [
    FunctionExample("url_query('https://app.example.com/cb?state=xyz&code=abc', 'state')", "xyz"),
    FunctionExample("url_query('https://app.example.com/cb?code=abc', 'code')", .secret("abc")),
    FunctionExample("url_query('https://app.example.com/cb#error=access_denied&x=a%20b', 'x')", "a b"),
    FunctionExample("url_query('https://app.example.com/cb?state=1', 'code')", nil),
  ]

  /// Parameters that carry credentials: their values are secret even when the URL is not.
  static let secretParameters: Set<String> = [
    "code", "access_token", "id_token", "refresh_token", "session_transfer_token", "ticket", "token",
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let url = try Self.text(arguments, 0)
    let wanted = try Self.text(arguments, 1)
    var query = Substring(url)
    var fragment: Substring = ""
    if let hash = query.firstIndex(of: "#") {
      fragment = query[query.index(after: hash)...]
      query = query[..<hash]
    }
    query = query.firstIndex(of: "?").map { query[query.index(after: $0)...] } ?? ""
    for component in [query, fragment] {
      guard let found = Self.parameter(wanted, in: component) else { continue }
      let secret = arguments[0].containsSecret || Self.secretParameters.contains(wanted)
      return secret ? .secret(.string(found)) : .string(found)
    }
    return .null
  }

  private static func parameter(_ wanted: String, in component: Substring) -> String? {
    for pair in component.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard decode(parts[0]) == wanted else { continue }
      return parts.count > 1 ? decode(parts[1]) : ""
    }
    return nil
  }

  private static func decode(_ text: Substring) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }
}
