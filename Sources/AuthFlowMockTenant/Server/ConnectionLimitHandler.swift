import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Enforces the mock's connection limits in the channel pipeline, where the routes cannot:
///
/// - request headers past the decoder's size limit are answered **431** (Hummingbird would answer
///   400), and the connection is closed;
/// - a response that says `Connection: close` (the 413 of ``RequestSizeMiddleware``) closes the
///   connection once written, so an oversized body is not read to its end;
/// - and, once added, it puts ``PersistenceHandler`` before the codec, which closes the connection
///   after the requests that ask for it by the rules Hummingbird does not follow.
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private var closeAfterResponse = false

  func handlerAdded(context: ChannelHandlerContext) {
    do {
      try PersistenceHandler.install(in: context.pipeline.syncOperations)
    } catch {
      // Cannot happen with Hummingbird's HTTP/1 pipeline; a connection that could not honour
      // `Connection: close` is not served.
      context.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    context.fireChannelRead(data)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let parserError = error as? HTTPParserError, parserError == .headerOverflow else {
      context.fireErrorCaught(error)
      return
    }
    let head = HTTPResponse(
      status: .init(code: 431, reasonPhrase: "Request Header Fields Too Large"),
      headerFields: [.connection: "close", .contentLength: "0"])
    let channel = context.channel
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head):
      closeAfterResponse = head.headerFields[.connection]?.lowercased() == "close"
    case .end where closeAfterResponse:
      closeAfterResponse = false
      let channel = context.channel
      let written = promise ?? context.eventLoop.makePromise()
      written.futureResult.whenComplete { _ in channel.close(promise: nil) }
      context.write(data, promise: written)
      return
    case .end, .body:
      break
    }
    context.write(data, promise: promise)
  }
}
