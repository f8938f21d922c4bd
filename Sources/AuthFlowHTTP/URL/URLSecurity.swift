/// What the runner asks of a URL's scheme before it sends anything there, over ``URLParts``: the
/// login driver before it submits a form, discovery before it takes an endpoint.
public enum URLSecurity {
  /// The lowercased scheme of an absolute `http` or `https` URL with a host; nil for anything else
  /// (a relative reference, `javascript:`, `file:`, `https://` without a host).
  public static func httpScheme(of url: String) -> String? {
    guard let parts = URLParts(url), parts.isHTTP, !parts.host.isEmpty else { return nil }
    return parts.scheme
  }

  /// Whether going from `origin` (a page, an issuer) to `target` leaves TLS: `https` to plain
  /// `http`, where what is sent travels in the clear.
  public static func isDowngrade(from origin: String, to target: String) -> Bool {
    URLParts.scheme(of: origin) == "https" && URLParts.scheme(of: target) == "http"
  }
}
