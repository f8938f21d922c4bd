import NIOCore
import NIOHTTP1

/// Whether a connection stays open after a response, by the request's version and `Connection`
/// header (RFC 9112 §9.3), where Hummingbird's HTTP-types codec cannot see the version.
///
/// Hummingbird keeps a connection open unless the request's `Connection` value is exactly `close`,
/// which is wrong twice: an HTTP/1.0 request is persistent only with `Connection: keep-alive` (so
/// a plain HTTP/1.0 client waited for a close that never came), and the option is a
/// case-insensitive token in a list (`Connection: Close` or `close, TE` kept the connection open).
/// This handler sits between NIO's HTTP/1 decoder and the codec, where the request head still has
/// its version (``ConnectionLimitHandler`` puts it there when Hummingbird adds that handler):
///
/// - a request that is not persistent has its `Connection` set to `close`, so Hummingbird closes
///   the connection once it has answered, and the answer says `Connection: close`;
/// - an HTTP/1.0 request with `keep-alive` is answered with `Connection: keep-alive`, as an
///   HTTP/1.0 client needs to hear to reuse the connection (`ab -k`).
final class PersistenceHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private enum Persistence {
    case close
    case keepAliveHTTP10
    case http11
  }

  /// The persistence of each request read and not yet answered, oldest first: the decoder may
  /// read pipelined requests ahead of the answers, which go out in request order. Bounded by the
  /// async channel's backpressure, which stops reading while Hummingbird has requests to answer.
  private var pending = CircularBuffer<Persistence>(initialCapacity: 2)

  /// Adds the handler right after the HTTP/1 request decoder of `pipeline`.
  static func install(in pipeline: ChannelPipeline.SynchronousOperations) throws {
    let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
    try pipeline.addHandler(PersistenceHandler(), position: .after(decoder.handler))
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data) else {
      context.fireChannelRead(data)
      return
    }
    if !head.isKeepAlive {
      pending.append(.close)
      head.headers.replaceOrAdd(name: "connection", value: "close")
    } else {
      pending.append(head.version == .http1_1 ? .http11 : .keepAliveHTTP10)
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard case .head(var head) = unwrapOutboundIn(data) else {
      context.write(data, promise: promise)
      return
    }
    // A head written with no request read (a 400 or 431 for a head that could not be parsed)
    // closes the connection itself.
    switch pending.popFirst() ?? .http11 {
    case .close:
      head.headers.replaceOrAdd(name: "connection", value: "close")
    case .keepAliveHTTP10 where head.isKeepAlive:
      head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
    case .keepAliveHTTP10, .http11:
      break
    }
    context.write(wrapOutboundOut(.head(head)), promise: promise)
  }
}
