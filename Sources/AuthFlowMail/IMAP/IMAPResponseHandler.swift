import NIOCore
import NIOSSL
import NIOTLS

/// The last handler of the client's pipeline: frames the inbound bytes into responses, queues
/// them (bounded) and hands them out one at a time, each wait with a deadline.
///
/// Lives on the channel's event loop; ``IMAPConnection`` reaches it only through the loop.
final class IMAPResponseHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private let limits: IMAPConfiguration.Limits
  private var framer: IMAPResponseFramer
  private var ready = CircularBuffer<IMAPResponseFrame>()
  private var readyBytes = 0
  /// Set once; every later wait fails with it after the queued frames are handed out.
  private var failure: IMAPError?
  private var waiter: (promise: EventLoopPromise<IMAPResponseFrame>, timeout: Scheduled<Void>)?
  /// Between adding the TLS handler and its `handshakeCompleted`: failures then are TLS failures.
  private var handshaking: Bool
  private var context: ChannelHandlerContext?

  init(limits: IMAPConfiguration.Limits, handshaking: Bool) {
    self.limits = limits
    self.framer = IMAPResponseFramer(limits: limits)
    self.handshaking = handshaking
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard failure == nil else { return }
    framer.append(unwrapInboundIn(data))
    do throws(IMAPError) {
      while let frame = try framer.next() {
        ready.append(frame)
        readyBytes += frame.byteCount
      }
      if framer.bufferedBytes + readyBytes > limits.maxBufferedBytes {
        throw IMAPError.responseTooLarge(limit: limits.maxBufferedBytes)
      }
    } catch {
      fail(error)
      return
    }
    deliver()
  }

  func channelInactive(context: ChannelHandlerContext) {
    fail(handshaking ? .tlsClosedDuringHandshake : .connectionClosed)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    fail(IMAPError.transport(error, handshaking: handshaking))
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case .handshakeCompleted = event as? TLSUserEvent { handshaking = false }
    context.fireUserInboundEventTriggered(event)
  }

  /// The next response; fails with `timeout` (and closes the connection) at `deadline`.
  func next(
    deadline: NIODeadline, waitingFor purpose: String, on eventLoop: any EventLoop
  )
    -> EventLoopFuture<IMAPResponseFrame>
  {
    if let frame = ready.popFirst() {
      readyBytes -= frame.byteCount
      return eventLoop.makeSucceededFuture(frame)
    }
    if let failure { return eventLoop.makeFailedFuture(failure) }
    if waiter != nil { return eventLoop.makeFailedFuture(IMAPError.concurrentRead) }
    let promise = eventLoop.makePromise(of: IMAPResponseFrame.self)
    let handler = NIOLoopBound(self, eventLoop: eventLoop)
    let timeout = eventLoop.scheduleTask(deadline: deadline) {
      handler.value.fail(.timedOut(waitingFor: purpose, handshaking: handler.value.handshaking))
    }
    waiter = (promise, timeout)
    return promise.futureResult
  }

  /// Drops every byte and response received so far, in the same event-loop turn in which the
  /// caller adds the TLS handler: whatever the server sent after its STARTTLS `OK` is plaintext
  /// that nobody authenticated (RFC 3501 §6.2.1, CVE-2011-0411 style injection).
  func discardPlaintextForTLS() {
    framer.discardAll()
    ready.removeAll()
    readyBytes = 0
    handshaking = true
  }

  /// The failure that ended the connection, if one did.
  var terminalFailure: IMAPError? { failure }

  private func deliver() {
    guard let waiter, let frame = ready.popFirst() else { return }
    readyBytes -= frame.byteCount
    self.waiter = nil
    waiter.timeout.cancel()
    waiter.promise.succeed(frame)
  }

  private func fail(_ error: IMAPError) {
    if failure == nil { failure = error }
    if let waiter, ready.isEmpty {
      self.waiter = nil
      waiter.timeout.cancel()
      waiter.promise.fail(failure ?? error)
    }
    context?.close(promise: nil)
  }
}

extension IMAPError {
  static let connectionClosed = IMAPError(.closed, "the server closed the connection")
  static let tlsClosedDuringHandshake = IMAPError(
    .tlsFailed, "the server closed the connection during the TLS handshake")
  static let concurrentRead = IMAPError(.protocolError, "two reads waited on one IMAP connection at once")

  static func timedOut(waitingFor purpose: String, handshaking: Bool) -> IMAPError {
    IMAPError(.timeout, "timed out waiting for \(handshaking ? "the TLS handshake and " : "")\(purpose)")
  }

  /// An error from the channel: TLS errors are `tlsFailed`, everything else `closed`.
  static func transport(_ error: any Error, handshaking: Bool) -> IMAPError {
    if let error = error as? IMAPError { return error }
    if handshaking || error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
      return IMAPError(.tlsFailed, "TLS failed: \(error)")
    }
    return IMAPError(.closed, "the connection failed: \(error)")
  }
}
