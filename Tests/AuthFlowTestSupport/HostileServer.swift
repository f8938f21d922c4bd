import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A misbehaving tenant on 127.0.0.1 (port 0) for the length of one test: raw sockets that hang,
/// trickle, reset, answer garbage or speak bad TLS.
public enum HostileServer {
  /// What the server does once a request has started to arrive.
  public enum Behaviour: Sendable {
    /// Accepts and reads, never answers.
    case hang
    /// Sends a status line, then header bytes one at a time, every `interval`, forever.
    case trickleHeaders(interval: Duration)
    /// Sends complete headers (a large `Content-Length`), then body bytes one at a time.
    case trickleBody(interval: Duration)
    /// Resets the connection (RST) as soon as the request arrives.
    case reset
    /// Sends a complete response head and then `bytes` of body as fast as it can.
    case oversizedBody(bytes: Int)
    /// Answers a valid 200 whose head carries `count` 100-byte `Set-Cookie` headers.
    case oversizedHead(count: Int)
    /// Answers bytes that are not HTTP, then closes.
    case malformed
    /// A plain HTTP server that answers 400 to anything (put it behind an https URL).
    case plainHTTP
    /// TLS with a self-signed certificate for `authflow-hostile.invalid`, then a valid 200.
    case selfSignedTLS
  }

  public struct StartFailed: Error {}

  /// Starts the server, runs `body` with its `host:port` (`127.0.0.1:PORT`), stops it whatever
  /// happens.
  ///
  /// Every behaviour runs on the connection's event loop, in a channel handler: no task of the
  /// cooperative pool stands between the request and the misbehaviour, so a test process whose
  /// pool is starved (the whole suite on 2 cores) still gets its reset, its garbage or its flood at
  /// once, and the client's deadline is not what ends the test.
  public static func with<T: Sendable>(
    _ behaviour: Behaviour, _ body: (String) async throws -> T
  ) async throws -> T {
    let tls: NIOSSLContext? =
      if case .selfSignedTLS = behaviour { try makeTLSContext() } else { nil }
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          if let tls {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
          }
          try channel.pipeline.syncOperations.addHandler(HostileHandler(behaviour))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    guard let port = server.localAddress?.port else {
      try? await server.close()
      throw StartFailed()
    }
    do {
      let result = try await body("127.0.0.1:\(port)")
      try? await server.close()
      return result
    } catch {
      try? await server.close()
      throw error
    }
  }

  /// Does what the behaviour says once the first bytes of a request (or a TLS hello) arrive.
  private final class HostileHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let behaviour: Behaviour
    private var started = false
    private var trickle: RepeatedTask?

    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard !started else { return }
      started = true
      switch behaviour {
      case .hang:
        break
      case .trickleHeaders(let interval):
        write(context, "HTTP/1.1 200 OK\r\nX-Slow: ")
        startTrickle(context, interval: interval, byte: UInt8(ascii: "a"))
      case .trickleBody(let interval):
        write(context, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        startTrickle(context, interval: interval, byte: UInt8(ascii: " "))
      case .reset:
        // SO_LINGER 0: close sends a RST instead of a FIN.
        let channel = context.channel
        if let provider = channel as? any SocketOptionProvider {
          provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
        } else {
          channel.close(promise: nil)
        }
      case .oversizedBody(let bytes):
        write(
          context,
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes)\r\n\r\n")
        let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 16 * 1024)
        var sent = 0
        while sent < bytes {
          context.write(wrapOutboundOut(chunk), promise: nil)
          sent += chunk.readableBytes
        }
        context.flush()
      case .oversizedHead(let count):
        var head = "HTTP/1.1 200 OK\r\n"
        for index in 0..<count { head += "Set-Cookie: c\(index)=\(String(repeating: "x", count: 80)); Path=/\r\n" }
        write(context, head + "Content-Length: 2\r\n\r\n{}")
      case .malformed:
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "this is not HTTP at all\r\n\r\n")))
          .whenComplete { _ in channel.close(promise: nil) }
      case .plainHTTP:
        let channel = context.channel
        context.writeAndFlush(
          wrapOutboundOut(
            ByteBuffer(string: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
        ).whenComplete { _ in channel.close(promise: nil) }
      case .selfSignedTLS:
        write(context, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
      }
    }

    func channelInactive(context: ChannelHandlerContext) {
      trickle?.cancel()
      trickle = nil
      context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      trickle?.cancel()
      trickle = nil
      context.close(promise: nil)
    }

    private func write(_ context: ChannelHandlerContext, _ text: String) {
      context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
    }

    /// One byte every `interval`, at most 100,000 of them, until the client goes away.
    private func startTrickle(_ context: ChannelHandlerContext, interval: Duration, byte: UInt8) {
      let channel = context.channel
      let step = TimeAmount.nanoseconds(
        Int64(interval.components.seconds) * 1_000_000_000
          + Int64(interval.components.attoseconds / 1_000_000_000))
      let remaining = NIOLockedValueBox(100_000)
      trickle = context.eventLoop.scheduleRepeatedTask(initialDelay: step, delay: step) { task in
        let left = remaining.withLockedValue { count in
          count -= 1
          return count
        }
        guard left >= 0, channel.isActive else {
          task.cancel()
          return
        }
        channel.writeAndFlush(ByteBuffer(bytes: [byte]), promise: nil)
      }
    }
  }

  private static func makeTLSContext() throws -> NIOSSLContext {
    let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
    let key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
    let configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
    return try NIOSSLContext(configuration: configuration)
  }

  /// A self-signed certificate for `authflow-hostile.invalid` (EC P-256, valid until 2126).
  static let certificatePEM = """
    -----BEGIN CERTIFICATE-----
    MIIBwzCCAWigAwIBAgIURiJ8JNtPzdTH4gBD5kuMjUy8Y8MwCgYIKoZIzj0EAwIw
    IzEhMB8GA1UEAwwYYXV0aGZsb3ctaG9zdGlsZS5pbnZhbGlkMCAXDTI2MTEyNTA0
    MjUzNloYDzIxMjYxMTAxMDQyNTM2WjAjMSEwHwYDVQQDDBhhdXRoZmxvdy1ob3N0
    aWxlLmludmFsaWQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQF4jY8P5IA3Q0x
    9eEh0n9/+uJ0pgLbXOHveNqnOa+NNg6oGXyk1bfhXli3zFaj+1zQSILEjylhKoNC
    2mrs2F8Yo3gwdjAdBgNVHQ4EFgQU3Ihn2qSsmgpRnEDgytWBEAUgwLgwHwYDVR0j
    BBgwFoAU3Ihn2qSsmgpRnEDgytWBEAUgwLgwDwYDVR0TAQH/BAUwAwEB/zAjBgNV
    HREEHDAaghhhdXRoZmxvdy1ob3N0aWxlLmludmFsaWQwCgYIKoZIzj0EAwIDSQAw
    RgIhAIEp1XnqOmBesKoDbnWGK/cHTuKLx626xW7Qgdq6CmH+AiEA9U6zRlwjX7GV
    fOaaIaBbg6GTW/q8Z2e13iH10adlrpg=
    -----END CERTIFICATE-----
    """

  static let keyPEM = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg52iUuvr1DoGLOMrS
    r9Cd54C5gSJj7WdEW12qaCUWcDmhRANCAAQF4jY8P5IA3Q0x9eEh0n9/+uJ0pgLb
    XOHveNqnOa+NNg6oGXyk1bfhXli3zFaj+1zQSILEjylhKoNC2mrs2F8Y
    -----END PRIVATE KEY-----
    """
}
