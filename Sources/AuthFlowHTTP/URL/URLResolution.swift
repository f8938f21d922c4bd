import Foundation

/// Resolving references the way a browser does for links, form actions and `Location` headers.
public enum URLResolution {
  /// Resolves `reference` against `base` (RFC 3986 §5); an empty reference is the base without
  /// its fragment. Nil when neither parses.
  public static func resolve(_ reference: String, against base: String) -> String? {
    // The common case, a redirect to a path of the same origin, without Foundation (PlainURL).
    if let resolved = PlainURL(base)?.resolving(absolutePath: reference) { return resolved }
    let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty {
      return String(base.prefix { $0 != "#" })
    }
    if URLParts.scheme(of: trimmed) != nil { return trimmed }
    guard let baseURL = URL(string: base), let resolved = URL(string: trimmed, relativeTo: baseURL) else {
      return nil
    }
    return resolved.absoluteString
  }

  /// `url` with `parameters` appended to its query (before any fragment), RFC 3986 encoded.
  public static func appendingQuery(_ parameters: URLParameters, to url: String) -> String {
    guard !parameters.isEmpty else { return url }
    let (base, query, fragment) = URLParts.split(url)
    var result = String(base) + "?"
    if let query, !query.isEmpty { result += query + "&" }
    result += parameters.queryString()
    if let fragment { result += "#" + fragment }
    return result
  }

  /// `url` with its query replaced by `query` (as an HTML GET form submission does); the fragment
  /// is dropped.
  static func replacingQuery(of url: String, with query: String) -> String {
    let base = URLParts.split(url).base
    return query.isEmpty ? String(base) + "?" : String(base) + "?" + query
  }
}
