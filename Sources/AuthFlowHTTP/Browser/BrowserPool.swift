public import Foundation

/// The browsers of a run, by name: steps naming the same browser share its cookie jar; a step
/// naming none gets an isolated one.
public actor BrowserPool {
  private let transport: any HTTPTransport
  private let callbackPrefixes: [String]
  private let now: @Sendable () -> Date
  private var browsers: [String: Browser] = [:]

  public init(
    transport: any HTTPTransport, callbackPrefixes: [String] = [], now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.transport = transport
    self.callbackPrefixes = callbackPrefixes
    self.now = now
  }

  /// The browser with that name, created on first use.
  public func browser(named name: String) -> Browser {
    if let existing = browsers[name] { return existing }
    let browser = Browser(name: name, transport: transport, callbackPrefixes: callbackPrefixes, now: now)
    browsers[name] = browser
    return browser
  }

  /// A browser nobody else shares.
  public func isolatedBrowser() -> Browser {
    Browser(name: "isolated", transport: transport, callbackPrefixes: callbackPrefixes, now: now)
  }

  /// The names of the browsers created so far.
  public var names: [String] {
    browsers.keys.sorted()
  }

  /// Forgets every named browser.
  public func removeAll() {
    browsers.removeAll()
  }
}
