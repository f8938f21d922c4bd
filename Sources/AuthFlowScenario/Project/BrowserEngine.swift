/// Which browser drives the login pages of `web_auth`: the built-in HTML driver, or a real
/// headless chromium over the DevTools protocol (pages rendered, scripts run). A tenant chooses
/// one with `browser:`; a step with `browser: chromium` (or `html`) overrides it.
public enum BrowserEngine: String, Sendable, CaseIterable, Hashable {
  /// The built-in driver: HTTP requests, a cookie jar, HTML forms; no scripts.
  case html
  /// Debian's `chromium`, headless, driven over the Chrome DevTools Protocol.
  case chromium

  /// The engine and the named browser (cookie jar) a step uses: a step's `browser` that names an
  /// engine selects it (with the default jar); any other name is a jar, driven by the tenant's
  /// engine (`html` when the tenant names none).
  public static func select(step: String?, tenant: BrowserEngine?) -> (engine: BrowserEngine, name: String?) {
    if let step, let engine = BrowserEngine(rawValue: step) { return (engine, nil) }
    return (tenant ?? .html, step)
  }
}
