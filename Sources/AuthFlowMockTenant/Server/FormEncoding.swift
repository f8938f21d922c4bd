import Foundation

/// `application/x-www-form-urlencoded` and query strings.
enum FormEncoding {
  /// Decodes `a=1&b=two+words`; `+` is a space; a bare `flag` has the empty value; the first of
  /// repeated keys wins.
  static func decode(_ text: String) -> [String: String] {
    var result: [String: String] = [:]
    for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key = unescape(parts[0])
      guard !key.isEmpty, result[key] == nil else { continue }
      result[key] = parts.count > 1 ? unescape(parts[1]) : ""
    }
    return result
  }

  private static func unescape(_ text: some StringProtocol) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }

  private static let unreserved: CharacterSet = {
    var set = CharacterSet.alphanumerics.intersection(
      CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
    set.insert(charactersIn: "-._~")
    return set
  }()

  /// Percent-encodes everything but the unreserved characters.
  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }

  /// `a=1&b=2`, in the given order.
  static func encode(_ pairs: [(String, String)]) -> String {
    pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  /// `base` with `pairs` appended to its query (`?`/`&`) or, for `fragment`, as the fragment.
  static func append(_ pairs: [(String, String)], to base: String, fragment: Bool = false) -> String {
    let encoded = encode(pairs)
    if fragment { return base + "#" + encoded }
    return base + (base.contains("?") ? "&" : "?") + encoded
  }
}
