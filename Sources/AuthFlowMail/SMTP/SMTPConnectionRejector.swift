import NIOCore

/// The whole pipeline of a connection over ``SMTPConfiguration/maxConnections``: `421`, then close.
final class SMTPConnectionRejector: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  func channelActive(context: ChannelHandlerContext) {
    let reply = context.channel.allocator.buffer(string: SMTPReply.tooManyConnections.encoded)
    context.writeAndFlush(wrapOutboundOut(reply)).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
