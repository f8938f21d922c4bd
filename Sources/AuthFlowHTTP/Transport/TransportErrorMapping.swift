import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps NIO and AsyncHTTPClient errors to the transport's closed set of kinds, each with one
/// readable sentence: the libraries' own descriptions (type names, OpenSSL reason codes, source
/// paths) never reach a message.
enum TransportErrorMapping {
  /// The limits in force for the exchange, for the messages.
  struct Limits {
    var body: Int
    var connect: Duration
    var exchange: Duration
  }

  static func map(
    _ error: any Error, url: String, bodyLimit: Int, timeouts: (connect: Duration, exchange: Duration)
  ) -> TransportError {
    map(error, url: url, limits: Limits(body: bodyLimit, connect: timeouts.connect, exchange: timeouts.exchange))
  }

  static func map(_ error: any Error, url: String, limits: Limits) -> TransportError {
    switch error {
    case let error as TransportError:
      return error
    case let error as HTTPClientError:
      return map(error, url: url, limits: limits)
    case let error as NIOConnectionError:
      return map(error, url: url, limits: limits)
    case let error as IOError:
      return map(errno: error.errnoCode, url: url, limits: limits)
    case let error as ChannelError:
      if case .connectTimeout = error { return .connectTimeout(url, after: limits.connect) }
      if case .ioOnClosedChannel = error { return .connectionClosed(url) }
      if case .eof = error { return .connectionClosed(url) }
      return .other(url, detail: "the connection failed")
    case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
      return .tls(url, detail: tlsReason(error, url: url))
    case let error as HTTPParserError:
      // Valid HTTP, only more of it than the parser reads (80 KiB of head: a Set-Cookie flood).
      return error == .headerOverflow ? .headTooLarge(url) : .malformedResponse(url)
    case is NIOTooManyBytesError:
      return .bodyTooLarge(url, limit: limits.body)
    case is CancellationError:
      return .cancelled(url)
    default:
      return .other(url, detail: "the exchange failed")
    }
  }

  /// Why a handshake failed, in words: the TLS library's reason codes are matched, never shown.
  static func tlsReason(_ error: any Error, url: String) -> String {
    if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
      return TransportError.TLSReason.wrongHost(URLParts(url)?.host ?? url)
    }
    let text = String(describing: error).uppercased()
    if text.contains("WRONG_VERSION_NUMBER") || text.contains("PACKET_LENGTH_TOO_LONG")
      || text.contains("HTTP_REQUEST") || text.contains("RECORD_LENGTH_MISMATCH")
    {
      return TransportError.TLSReason.notTLS
    }
    if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("CERTIFICATE") {
      return TransportError.TLSReason.untrusted
    }
    if text.contains("HOSTNAME") {
      return TransportError.TLSReason.wrongHost(URLParts(url)?.host ?? url)
    }
    return TransportError.TLSReason.handshake
  }

  private static func map(_ error: HTTPClientError, url: String, limits: Limits) -> TransportError {
    switch error {
    case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
      return .connectTimeout(url, after: limits.connect)
    case .readTimeout, .writeTimeout, .deadlineExceeded:
      return .exchangeTimeout(url, after: limits.exchange)
    case .invalidURL, .emptyHost, .emptyScheme:
      return .invalidURL(url)
    case .remoteConnectionClosed:
      return .connectionClosed(url)
    case .cancelled:
      return .cancelled(url)
    case .alreadyShutdown:
      return .shutDown(url)
    // (`incompatibleHeaders` and `chunkedSpecifiedMultipleTimes` are no longer raised: the client
    // corrects those headers itself.)
    case .bodyLengthMismatch, .contentLengthMissing:
      return .malformedResponse(url)
    default:
      return .other(url, detail: "the exchange failed")
    }
  }

  private static func map(_ error: NIOConnectionError, url: String, limits: Limits) -> TransportError {
    if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
      return .dns(url, detail: "no address found")
    }
    for failure in error.connectionErrors {
      if let ioError = failure.error as? IOError {
        return map(errno: ioError.errnoCode, url: url, limits: limits)
      }
      if case ChannelError.connectTimeout = failure.error {
        return .connectTimeout(url, after: limits.connect)
      }
    }
    if error.connectionErrors.isEmpty {
      return .dns(url, detail: "no address found")
    }
    return .other(url, detail: "the connection failed")
  }

  private static func map(errno code: Int32, url: String, limits: Limits) -> TransportError {
    switch code {
    case ECONNREFUSED: return .connectionRefused(url)
    case ETIMEDOUT: return .connectTimeout(url, after: limits.connect)
    case ECONNRESET: return .connectionReset(url)
    case EPIPE: return .connectionClosed(url)
    case EHOSTUNREACH, ENETUNREACH: return .other(url, detail: "the host cannot be reached")
    default: return .other(url, detail: "the connection failed (errno \(code))")
    }
  }
}
