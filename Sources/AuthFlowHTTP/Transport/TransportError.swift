import AuthFlowCore

/// Failing to get a response at all. The runner reports these as environment failures (exit 3),
/// distinct from assertion failures: the tenant could not be reached or misbehaved.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as a closed set.
  public enum Kind: String, Sendable, Hashable {
    case connectionRefused
    case timeout
    case dns
    case tls
    case invalidURL
    /// A redirect chain went past the browser's hop limit.
    case tooManyRedirects
    /// A response body went past the transport's size cap.
    case bodyTooLarge
    case other
  }

  public var kind: Kind
  /// A readable sentence, without secrets of its own (callers still scrub URLs).
  public var message: String
  /// The URL being fetched, when there was one.
  public var url: String?

  public init(kind: Kind, message: String, url: String? = nil) {
    self.kind = kind
    self.message = message
    self.url = url
  }

  public var description: String { message }
}

extension TransportError {
  static func connectionRefused(_ url: String) -> Self {
    .init(kind: .connectionRefused, message: "connection refused by \(hostDescription(url))", url: url)
  }

  static func connectionClosed(_ url: String) -> Self {
    .init(kind: .other, message: "connection to \(hostDescription(url)) closed before a response", url: url)
  }

  static func connectTimeout(_ url: String, after limit: Duration) -> Self {
    .init(
      kind: .timeout, message: "connecting to \(hostDescription(url)) timed out after \(DurationText.format(limit))",
      url: url)
  }

  static func exchangeTimeout(_ url: String, after limit: Duration) -> Self {
    .init(
      kind: .timeout,
      message:
        "no complete response from \(url) within \(DurationText.format(limit)) "
        + "(the tenant is too slow or not answering)",
      url: url)
  }

  static func connectionReset(_ url: String) -> Self {
    .init(kind: .other, message: "connection to \(hostDescription(url)) was reset", url: url)
  }

  /// The response's status line and headers exceed what the HTTP parser reads (llhttp's 80 KiB).
  static func headTooLarge(_ url: String) -> Self {
    .init(kind: .other, message: "the response of \(url) has more than 80 KiB of headers", url: url)
  }

  static func malformedResponse(_ url: String) -> Self {
    .init(kind: .other, message: "the response of \(url) is not valid HTTP", url: url)
  }

  static func dns(_ url: String, detail: String) -> Self {
    .init(kind: .dns, message: "cannot resolve \(hostDescription(url)): \(detail)", url: url)
  }

  static func tls(_ url: String, detail: String) -> Self {
    .init(kind: .tls, message: "TLS failure with \(hostDescription(url)): \(detail)", url: url)
  }

  /// The readable reasons of a TLS failure (never the TLS library's own text).
  enum TLSReason {
    static let untrusted =
      "the server's certificate is not trusted (self-signed, expired, or from an unknown authority)"
    static func wrongHost(_ host: String) -> String { "the server's certificate is not valid for \(host)" }
    static let notTLS = "the server does not speak TLS on this port (a plain HTTP server behind an https URL?)"
    static let handshake = "the TLS handshake failed"
  }

  static func invalidURL(_ url: String, reason: String = "not an absolute http(s) URL") -> Self {
    .init(kind: .invalidURL, message: "invalid URL '\(url)': \(reason)", url: url)
  }

  static func bodyTooLarge(_ url: String, limit: Int) -> Self {
    .init(kind: .bodyTooLarge, message: "response body of \(url) is larger than \(limit) bytes", url: url)
  }

  static func tooManyRedirects(_ url: String, hops: Int) -> Self {
    .init(kind: .tooManyRedirects, message: "more than \(hops) redirects, starting at \(url)", url: url)
  }

  static func cancelled(_ url: String) -> Self {
    .init(kind: .other, message: "request to \(url) was cancelled", url: url)
  }

  static func shutDown(_ url: String) -> Self {
    .init(kind: .other, message: "the HTTP client was shut down before sending to \(url)", url: url)
  }

  static func other(_ url: String, detail: String) -> Self {
    .init(kind: .other, message: "request to \(url) failed: \(detail)", url: url)
  }

  static func hostDescription(_ url: String) -> String {
    guard let parts = URLParts(url) else { return url }
    return parts.port.map { "\(parts.host):\($0)" } ?? parts.host
  }
}
