import AuthFlowCore

/// Why the real-browser driver could not do its work: chromium missing, not starting, its
/// DevTools connection failing, or a page not loading in time. Always the environment's fault
/// (exit 3), never an assertion failure.
public struct ChromiumError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A readable sentence with a hint where there is one; never a secret of its own (callers still
  /// scrub URLs).
  public var message: String

  public init(message: String) {
    self.message = message
  }

  public var description: String { message }

  static func devTools(_ message: String) -> ChromiumError { ChromiumError(message: message) }
}

/// The messages of the real-browser driver.
enum ChromiumMessages {
  static func notFound(searched: [String]) -> String {
    "chromium was not found (looked for \(searched.joined(separator: ", ")) on PATH): install it "
      + "(`apt-get install chromium` on Debian) or set AUTHFLOW_CHROMIUM to its path"
  }
  static func notExecutable(_ path: String) -> String {
    "chromium was not found: AUTHFLOW_CHROMIUM is \(path), which is not an executable file; point it at chromium, "
      + "or unset it to use `chromium` from PATH (`apt-get install chromium` on Debian)"
  }
  static func spawnFailed(_ executable: String, reason: String) -> String {
    "could not start \(executable): \(reason)"
  }
  static func noDevToolsPort(_ executable: String, within limit: Duration, output: String) -> String {
    let tail = output.isEmpty ? "" : "; its last output: \(output)"
    return "\(executable) did not open its DevTools port within \(describe(limit))\(tail)"
  }
  static func exitedAtLaunch(_ executable: String, status: Int32, output: String) -> String {
    let tail = output.isEmpty ? "" : ": \(output)"
    return "\(executable) exited with status \(status) while starting\(tail)"
  }
  static func upgradeRefused(port: Int) -> String {
    "chromium's DevTools endpoint on 127.0.0.1:\(port) refused the WebSocket upgrade"
  }
  static func connectFailed(port: Int, reason: String) -> String {
    "could not connect to chromium's DevTools endpoint on 127.0.0.1:\(port): \(reason)"
  }
  static func messageTooLarge(limit: Int) -> String {
    "chromium sent a DevTools message larger than \(limit / (1024 * 1024)) MiB"
  }
  static let disconnected = "the DevTools connection to chromium closed (did chromium crash or get killed?)"
  static func commandTimedOut(_ method: String, after limit: Duration) -> String {
    "chromium did not answer \(method) within \(describe(limit))"
  }
  static func commandFailed(_ method: String, message: String) -> String {
    "chromium refused \(method): \(message)"
  }
  static func unexpectedAnswer(_ method: String) -> String {
    "chromium answered \(method) without the expected result"
  }
  static func navigationFailed(_ url: String, reason: String) -> String {
    "chromium could not load \(url): \(reason)"
  }
  static func pageTimedOut(_ url: String, after limit: Duration) -> String {
    "the page \(url) did not finish loading in chromium within \(describe(limit))"
  }
  static let stopped = "chromium was stopped (the run is ending)"
  static func formNotInPage(index: Int) -> String {
    "the form to submit (form #\(index + 1) of the page) is no longer in chromium's page"
  }

  static func describe(_ duration: Duration) -> String {
    DurationText.format(duration)
  }
}
