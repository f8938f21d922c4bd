import NIOCore
import NIOPosix
import NIOSSL

/// One TCP (and TLS) connection to the server: opens it, writes commands, reads framed
/// responses with a deadline, and switches to TLS for STARTTLS.
struct IMAPConnection: Sendable {
  let channel: any Channel
  /// Held here rather than looked up, so that its failure outlives the closed pipeline.
  private let handler: NIOLoopBound<IMAPResponseHandler>
  private let configuration: IMAPConfiguration

  private init(channel: any Channel, handler: NIOLoopBound<IMAPResponseHandler>, configuration: IMAPConfiguration) {
    self.channel = channel
    self.handler = handler
    self.configuration = configuration
  }

  /// Opens the TCP connection; with implicit TLS the handshake starts at once.
  static func open(_ configuration: IMAPConfiguration, tls: NIOSSLContext?) async throws(IMAPError) -> IMAPConnection {
    let serverHostname = configuration.hostIsIPAddress ? nil : configuration.host
    let limits = configuration.limits
    let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connectTimeout(TimeAmount(configuration.connectTimeout))
      .channelOption(.socketOption(.tcp_nodelay), value: 1)
    do {
      let (channel, handler) = try await bootstrap.connect(host: configuration.host, port: configuration.port) {
        channel in
        channel.eventLoop.makeCompletedFuture {
          if let tls {
            let tlsHandler = try NIOSSLClientHandler(context: tls, serverHostname: serverHostname)
            try channel.pipeline.syncOperations.addHandler(tlsHandler)
          }
          let handler = IMAPResponseHandler(limits: limits, handshaking: tls != nil)
          try channel.pipeline.syncOperations.addHandler(handler)
          return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop))
        }
      }
      return IMAPConnection(channel: channel, handler: handler, configuration: configuration)
    } catch {
      if case .connectTimeout = error as? ChannelError { throw .connectTimedOut(configuration) }
      throw .connectFailed(configuration, error)
    }
  }

  func send(_ bytes: [UInt8]) async throws(IMAPError) {
    do {
      try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
    } catch {
      throw await failure(after: error)
    }
  }

  /// The next response, waiting until `deadline` at most.
  func next(deadline: NIODeadline, waitingFor purpose: String) async throws(IMAPError) -> IMAPResponseFrame {
    let channel = self.channel
    let handler = self.handler
    // A cancelled task closes the connection, which ends the wait at once.
    let result = await withTaskCancellationHandler {
      do {
        return Result<IMAPResponseFrame, IMAPError>.success(
          try await channel.eventLoop.flatSubmit {
            handler.value.next(deadline: deadline, waitingFor: purpose, on: channel.eventLoop)
          }.get())
      } catch {
        return .failure(IMAPError.transport(error, handshaking: false))
      }
    } onCancel: {
      channel.close(promise: nil)
    }
    if case .failure = result, Task.isCancelled { throw .cancelled(waitingFor: purpose) }
    return try result.get()
  }

  /// Puts TLS under the IMAP handler, dropping whatever plaintext arrived after the server's
  /// STARTTLS `OK`, in one event-loop turn so that no later byte escapes the TLS handler.
  func startTLS(_ tls: NIOSSLContext) async throws(IMAPError) {
    let channel = self.channel
    let handler = self.handler
    let serverHostname = configuration.hostIsIPAddress ? nil : configuration.host
    do {
      try await channel.eventLoop.submit {
        handler.value.discardPlaintextForTLS()
        let tlsHandler = try NIOSSLClientHandler(context: tls, serverHostname: serverHostname)
        try channel.pipeline.syncOperations.addHandler(tlsHandler, position: .first)
      }.get()
    } catch {
      throw IMAPError.transport(error, handshaking: true)
    }
  }

  func close() async {
    try? await channel.close()
  }

  /// What a failed write means: the handler's reason if the connection already failed (a TLS
  /// handshake, say), else the write's own error.
  private func failure(after error: any Error) async -> IMAPError {
    let handler = self.handler
    let recorded = try? await channel.eventLoop.submit { handler.value.terminalFailure }.get()
    if let recorded { return recorded }
    return IMAPError.transport(error, handshaking: false)
  }
}

extension IMAPError {
  static func cancelled(waitingFor purpose: String) -> IMAPError {
    IMAPError(.closed, "the task was cancelled while waiting for \(purpose); the connection is closed")
  }

  static func connectTimedOut(_ configuration: IMAPConfiguration) -> IMAPError {
    IMAPError(
      .timeout,
      "connecting to \(configuration.host):\(configuration.port) timed out after \(configuration.connectTimeout)")
  }

  static func connectFailed(_ configuration: IMAPConfiguration, _ error: any Error) -> IMAPError {
    IMAPError(.connectionFailed, "could not connect to \(configuration.host):\(configuration.port): \(error)")
  }
}
