import AuthFlowCore
public import AuthFlowMail
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// How the mock serves: where it binds, and its limits (docs/tenants.md, "Mock limits").
public struct MockTenantConfiguration: Sendable {
  /// Host to bind; loopback unless told otherwise.
  public var host: String
  /// Port; 0 picks a free one.
  public var port: Int
  /// A connection that has not sent a complete request head (or sat idle between requests) for
  /// this long is closed: a slowloris client cannot hold a connection.
  public var headerTimeout: Duration = .seconds(10)
  /// The most bytes of request headers; past it the answer is 431 and the connection closes.
  public var maxHeaderSize: Int = 16 * 1024
  /// The most bytes of a request body; past it the answer is 413 and the connection closes.
  public var maxBodySize: Int = 1 << 20
  /// The bounds of the per-login state.
  public var stateLimits = MockStateLimits()
  /// Serve `/__mock/*` to any `Host` and `Origin` (`authflow mock --allow-remote-control`). Off,
  /// the control routes answer only loopback requests (``ControlGuardMiddleware``).
  public var allowRemoteControl = false
  /// Where the tenant sends its emails and text messages over SMTP too (`authflow mock --smtp`,
  /// a mock tenant's `inbox.smtp`); nil: the outbox only.
  public var mailRelay: SMTPSender?

  public init(host: String = "127.0.0.1", port: Int = 0) {
    self.host = host
    self.port = port
  }

  /// Whether `host` is a loopback address or name (binding anything else exposes `/__mock/*`).
  public static func isLoopback(host: String) -> Bool {
    let name = host.lowercased()
    let octets = name.split(separator: ".", omittingEmptySubsequences: false)
    let isIPv4Loopback =
      octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    return name == "localhost" || name == "::1" || name == "[::1]" || isIPv4Loopback
  }

  /// The HTTP/1.1 server with these limits.
  var server: HTTPServerBuilder {
    // Saturating: a timeout past about 292 years is "never", not a trap.
    let timeout = TimeAmount.nanoseconds(headerTimeout.saturatingNanoseconds)
    let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
      maxHeaderFieldSize: maxHeaderSize, maxHeaderListSize: maxHeaderSize, maxHeaderFieldCount: 200)
    return .http1(
      configuration: .init(
        additionalChannelHandlers: [ConnectionLimitHandler()], idleTimeout: timeout,
        httpDecoderConfiguration: decoder))
  }
}
