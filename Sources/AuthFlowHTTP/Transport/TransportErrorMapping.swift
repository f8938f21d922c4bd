import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Maps NIO and AsyncHTTPClient errors to the transport's closed set of kinds.
enum TransportErrorMapping {
  static func map(_ error: any Error, url: String, bodyLimit: Int) -> TransportError {
    switch error {
    case let error as TransportError:
      return error
    case let error as HTTPClientError:
      return map(error, url: url)
    case let error as NIOConnectionError:
      return map(error, url: url)
    case let error as IOError:
      return map(errno: error.errnoCode, url: url, detail: "\(error)")
    case let error as ChannelError:
      if case .connectTimeout = error { return .timeout(url, phase: "connecting") }
      return .other(url, detail: "\(error)")
    case let error as NIOSSLError:
      return .tls(url, detail: "\(error)")
    case is NIOSSLExtraError, is BoringSSLError:
      return .tls(url, detail: "\(error)")
    case is NIOTooManyBytesError:
      return .bodyTooLarge(url, limit: bodyLimit)
    case is CancellationError:
      return .cancelled(url)
    default:
      return .other(url, detail: "\(error)")
    }
  }

  private static func map(_ error: HTTPClientError, url: String) -> TransportError {
    switch error {
    case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
      return .timeout(url, phase: "connecting")
    case .readTimeout, .writeTimeout, .deadlineExceeded:
      return .timeout(url, phase: "the request")
    case .invalidURL, .emptyHost, .emptyScheme:
      return .invalidURL(url)
    case .remoteConnectionClosed:
      return .connectionClosed(url)
    case .cancelled:
      return .cancelled(url)
    case .alreadyShutdown:
      return .shutDown(url)
    default:
      return .other(url, detail: error.description)
    }
  }

  private static func map(_ error: NIOConnectionError, url: String) -> TransportError {
    if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
      let detail = (error.dnsAError ?? error.dnsAAAAError).map { "\($0)" } ?? "no address"
      return .dns(url, detail: detail)
    }
    for failure in error.connectionErrors {
      if let ioError = failure.error as? IOError {
        return map(errno: ioError.errnoCode, url: url, detail: "\(ioError)")
      }
      if case ChannelError.connectTimeout = failure.error {
        return .timeout(url, phase: "connecting")
      }
    }
    if error.connectionErrors.isEmpty {
      return .dns(url, detail: "no address found")
    }
    return .other(url, detail: "\(error)")
  }

  private static func map(errno code: Int32, url: String, detail: String) -> TransportError {
    switch code {
    case ECONNREFUSED: return .connectionRefused(url)
    case ETIMEDOUT: return .timeout(url, phase: "connecting")
    case ECONNRESET, EPIPE: return .connectionClosed(url)
    default: return .other(url, detail: detail)
    }
  }
}
