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
  public static func with<T: Sendable>(
    _ behaviour: Behaviour, _ body: (String) async throws -> T
  ) async throws -> T {
    let tls: NIOSSLContext? =
      if case .selfSignedTLS = behaviour { try makeTLSContext() } else { nil }
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture {
          if let tls {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
          }
          return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    guard let port = server.channel.localAddress?.port else { throw StartFailed() }
    let serving = Task {
      try await withThrowingDiscardingTaskGroup { group in
        try await server.executeThenClose { connections in
          for try await connection in connections {
            group.addTask { try? await serve(connection, behaviour) }
          }
        }
      }
    }
    defer {
      serving.cancel()
      server.channel.close(promise: nil)
    }
    return try await body("127.0.0.1:\(port)")
  }

  private static func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, _ behaviour: Behaviour) async throws
  {
    let channel = connection.channel
    defer { channel.close(promise: nil) }
    try await connection.executeThenClose { inbound, outbound in
      var requests = inbound.makeAsyncIterator()
      // Wait for the request (or the client's TLS hello) to start arriving.
      guard try await requests.next() != nil else { return }
      switch behaviour {
      case .hang:
        while try await requests.next() != nil {}
      case .trickleHeaders(let interval):
        try await outbound.write(ByteBuffer(string: "HTTP/1.1 200 OK\r\n"))
        for byte in Array("X-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 100_000) {
          try await Task.sleep(for: interval)
          try await outbound.write(ByteBuffer(bytes: [byte]))
        }
      case .trickleBody(let interval):
        try await outbound.write(
          ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"))
        for _ in 0..<100_000 {
          try await Task.sleep(for: interval)
          try await outbound.write(ByteBuffer(string: " "))
        }
      case .reset:
        // SO_LINGER 0: close sends a RST instead of a FIN.
        if let provider = channel as? any SocketOptionProvider {
          try await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try await channel.close()
      case .oversizedBody(let bytes):
        try await outbound.write(
          ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes)\r\n\r\n"))
        let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 16 * 1024)
        var sent = 0
        while sent < bytes {
          try await outbound.write(chunk)
          sent += chunk.readableBytes
        }
      case .oversizedHead(let count):
        var head = "HTTP/1.1 200 OK\r\n"
        for index in 0..<count { head += "Set-Cookie: c\(index)=\(String(repeating: "x", count: 80)); Path=/\r\n" }
        try await outbound.write(ByteBuffer(string: head + "Content-Length: 2\r\n\r\n{}"))
      case .malformed:
        try await outbound.write(ByteBuffer(string: "this is not HTTP at all\r\n\r\n"))
      case .plainHTTP:
        try await outbound.write(
          ByteBuffer(string: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
      case .selfSignedTLS:
        try await outbound.write(
          ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"))
        while try await requests.next() != nil {}
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
