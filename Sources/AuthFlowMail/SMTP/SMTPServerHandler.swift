import NIOCore
import NIOSSL

/// One connection's I/O: line framing with bounded buffers, the `DATA` phase, the `STARTTLS`
/// upgrade, timeouts and delivery to the store (inline, on the event loop). The protocol decisions are ``SMTPSession``'s.
final class SMTPServerHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private enum Mode {
    case command
    case data
    case closed
  }

  private var session: SMTPSession
  private let store: MessageStore
  private let sslContext: NIOSSLContext?
  private var buffer = ByteBuffer()
  private var mode = Mode.command
  private var dataReader: SMTPDataReader?
  /// How many bytes of an over-long line have been discarded while looking for its end.
  private var discarded: Int?
  private var timer: Scheduled<Void>?

  init(configuration: SMTPConfiguration, store: MessageStore, sslContext: NIOSSLContext?) {
    self.session = SMTPSession(configuration: configuration)
    self.store = store
    self.sslContext = sslContext
  }

  func channelActive(context: ChannelHandlerContext) {
    write(.greeting(hostname: session.configuration.hostname), context: context)
    context.flush()
    armTimer(context: context, duration: session.configuration.commandTimeout)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    mode = .closed
    timer?.cancel()
    timer = nil
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard mode != .closed else { return }
    var incoming = unwrapInboundIn(data)
    buffer.writeBuffer(&incoming)
    process(context: context)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard let event = event as? ChannelEvent, event == .inputClosed else {
      return context.fireUserInboundEventTriggered(event)
    }
    // The client shut its side (a pipelining client that sent everything and stops writing):
    // every line it sent was answered as it arrived; now the connection closes.
    close(context: context)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    mode = .closed
    timer?.cancel()
    context.close(promise: nil)
  }

  /// Handles every complete line in the buffer, in order, until a line changes what comes next.
  private func process(context: ChannelHandlerContext) {
    while mode == .command || mode == .data {
      let limit = mode == .data ? SMTPConfiguration.textLineLimit : SMTPConfiguration.commandLineLimit
      let view = buffer.readableBytesView
      let newline = view.firstIndex(of: MIMEBytes.lf)
      if let skipped = discarded {
        // The rest of an over-long line: dropped up to its end, within a bound.
        guard let newline else {
          discarded = skipped + view.count
          buffer.clear()
          if skipped + view.count > SMTPConfiguration.overlongLineDiscardLimit { close(context: context) }
          break
        }
        buffer.moveReaderIndex(forwardBy: newline - view.startIndex + 1)
        discarded = nil
        continue
      }
      guard let newline else {
        if view.count > limit {
          discarded = view.count
          buffer.clear()
          overlongLine(context: context)
          if view.count > SMTPConfiguration.overlongLineDiscardLimit { close(context: context) }
        }
        break
      }
      let endedWithCRLF = newline > view.startIndex && view[newline - 1] == MIMEBytes.cr
      let line = view[view.startIndex..<(endedWithCRLF ? newline - 1 : newline)]
      buffer.moveReaderIndex(forwardBy: newline - view.startIndex + 1)
      if line.count > limit {
        overlongLine(context: context)
      } else if mode == .data {
        dataLine(line, endedWithCRLF: endedWithCRLF, context: context)
      } else {
        commandLine(String(decoding: line, as: UTF8.self), context: context)
      }
    }
    if buffer.readerIndex > 16 * 1024 { buffer.discardReadBytes() }
    if mode != .closed { context.flush() }
  }

  private func overlongLine(context: ChannelHandlerContext) {
    if mode == .data {
      dataReader?.markLineTooLong()
    } else {
      apply(session.reject(.lineTooLong), context: context)
    }
  }

  private func commandLine(_ line: String, context: ChannelHandlerContext) {
    armTimer(context: context, duration: session.configuration.commandTimeout)
    apply(session.handle(line: line), context: context)
  }

  private func apply(_ outcome: SMTPSession.Outcome, context: ChannelHandlerContext) {
    for reply in outcome.replies { write(reply, context: context) }
    switch outcome.action {
    case .none: break
    case .close: close(context: context)
    case .beginData:
      mode = .data
      dataReader = SMTPDataReader(limit: session.configuration.maxMessageBytes)
      armTimer(context: context, duration: session.configuration.dataTimeout)
    case .startTLS: startTLS(context: context)
    }
  }

  private func dataLine(_ line: ByteBufferView.SubSequence, endedWithCRLF: Bool, context: ChannelHandlerContext) {
    guard let result = dataReader?.append(line: line, endedWithCRLF: endedWithCRLF) else { return }
    dataReader = nil
    let envelope = session.envelope
    session.didFinishData()
    switch result {
    case .tooLarge: finishData(.messageTooBig, context: context)
    case .lineTooLong: finishData(.lineTooLong, context: context)
    case .message(let raw):
      // Decoded and stored here, on the event loop (bounded by the MIME limits): the reply never
      // waits for a thread of the cooperative pool.
      let id = store.deliver(raw: raw, envelopeFrom: envelope?.from ?? "", recipients: envelope?.recipients ?? []).id
      finishData(.queued(id: id), context: context)
    }
  }

  private func finishData(_ reply: SMTPReply, context: ChannelHandlerContext) {
    mode = .command
    write(reply, context: context)
    armTimer(context: context, duration: session.configuration.commandTimeout)
  }

  /// Sends `220` in the clear, then puts TLS in front of everything; whatever the client sent after
  /// `STARTTLS` in the same packet is discarded unread, as RFC 3207 §5 requires.
  private func startTLS(context: ChannelHandlerContext) {
    context.flush()
    buffer.clear()
    discarded = nil
    guard let sslContext else { return close(context: context) }
    do {
      let handler = NIOSSLServerHandler(context: sslContext)
      try context.pipeline.syncOperations.addHandler(handler, position: .first)
    } catch {
      return close(context: context)
    }
    session.didStartTLS()
    armTimer(context: context, duration: session.configuration.commandTimeout)
  }

  private func armTimer(context: ChannelHandlerContext, duration: Duration) {
    timer?.cancel()
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) {
      guard self.mode != .closed else { return }
      self.write(.timeout, context: context)
      self.close(context: context)
    }
  }

  private func write(_ reply: SMTPReply, context: ChannelHandlerContext) {
    context.write(wrapOutboundOut(context.channel.allocator.buffer(string: reply.encoded)), promise: nil)
  }

  /// Flushes what was written, then closes.
  private func close(context: ChannelHandlerContext) {
    guard mode != .closed else { return }
    mode = .closed
    timer?.cancel()
    timer = nil
    let promise = context.eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(wrapOutboundOut(ByteBuffer()), promise: promise)
    promise.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
  }
}
