public import NIOCore
import NIOPosix
import NIOSSL

/// authflow's own ESMTP receiver (RFC 5321 with `STARTTLS`, `AUTH PLAIN`/`LOGIN`, `PIPELINING`,
/// `SIZE`, `8BITMIME`): every accepted message is decoded into a ``MessageStore``.
///
/// ```swift
/// let store = MessageStore()
/// let receiver = SMTPReceiver(configuration: SMTPConfiguration(), store: store)
/// let port = try await receiver.start()
/// // … send mail to 127.0.0.1:port …
/// await receiver.stop()
/// ```
public final class SMTPReceiver: Sendable {
  /// What the receiver listens on and enforces.
  public let configuration: SMTPConfiguration
  /// Where accepted messages go.
  public let store: MessageStore
  private let group: any EventLoopGroup
  private let registry = SMTPConnectionRegistry()

  /// Creates a receiver; it listens only once ``start()`` is called. Without a `group`, the
  /// process-wide NIO event loop group is used.
  public init(configuration: SMTPConfiguration, store: MessageStore, group: (any EventLoopGroup)? = nil) {
    self.configuration = configuration
    self.store = store
    self.group = group ?? NIOSingletons.posixEventLoopGroup
  }

  /// Binds the listener and returns its port (the ephemeral one when the configured port is 0).
  public func start() async throws(SMTPReceiverError) -> Int {
    let sslContext = try makeSSLContext()
    let configuration = configuration
    let store = store
    let registry = registry
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      // A client that shuts its side after its last command still gets every reply.
      .childChannelOption(.allowRemoteHalfClosure, value: true)
      .childChannelInitializer { channel in
        let admitted = registry.admit(channel, limit: configuration.maxConnections)
        if admitted {
          channel.closeFuture.whenComplete { _ in registry.remove(channel) }
        }
        return channel.eventLoop.makeCompletedFuture {
          if admitted {
            let handler = SMTPServerHandler(configuration: configuration, store: store, sslContext: sslContext)
            try channel.pipeline.syncOperations.addHandler(handler)
          } else {
            try channel.pipeline.syncOperations.addHandler(SMTPConnectionRejector())
          }
        }
      }
    let server: any Channel
    do {
      server = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
    } catch {
      throw .bind(host: configuration.host, port: configuration.port, error)
    }
    guard registry.setServer(server) else {
      try? await server.close()
      throw .alreadyStarted
    }
    return server.localAddress?.port ?? configuration.port
  }

  /// Closes the listener and every connection, waiting at most two seconds for them to close.
  public func stop() async {
    let (server, connections) = registry.shutDown()
    try? await server?.close()
    guard !connections.isEmpty else { return }
    let loop = group.any()
    let promise = loop.makePromise(of: Void.self)
    for connection in connections { connection.close(promise: nil) }
    EventLoopFuture.andAllComplete(connections.map(\.closeFuture), on: loop).whenComplete { _ in
      promise.succeed()
    }
    let deadline = loop.scheduleTask(in: .seconds(2)) { promise.succeed() }
    try? await promise.futureResult.get()
    deadline.cancel()
  }

  private func makeSSLContext() throws(SMTPReceiverError) -> NIOSSLContext? {
    guard let tls = configuration.tls else {
      if configuration.requireTLS { throw .requireTLSWithoutCertificate }
      return nil
    }
    let certificates: [NIOSSLCertificate]
    let key: NIOSSLPrivateKey
    do {
      certificates = try NIOSSLCertificate.fromPEMFile(tls.certificateChainPath)
    } catch {
      throw .tlsConfiguration(path: tls.certificateChainPath, error)
    }
    do {
      key = try NIOSSLPrivateKey(file: tls.privateKeyPath, format: .pem)
    } catch {
      throw .tlsConfiguration(path: tls.privateKeyPath, error)
    }
    let tlsConfiguration = TLSConfiguration.makeServerConfiguration(
      certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
    do {
      return try NIOSSLContext(configuration: tlsConfiguration)
    } catch {
      throw .tlsConfiguration(path: tls.certificateChainPath, error)
    }
  }
}
