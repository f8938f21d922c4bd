import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket client connection (RFC 6455) carrying text messages, as the DevTools protocol
/// needs: NIO's own WebSocket upgrader and frame codec, client frames masked, fragmented messages
/// reassembled, pings answered, and every message bounded by `maxMessageBytes`.
final class WebSocketConnection: Sendable {
  /// The messages received, in order; the stream ends when the connection closes.
  let messages: AsyncThrowingStream<String, any Error>
  private let outgoing: AsyncStream<WebSocketFrame>.Continuation
  private let worker: Task<Void, Never>

  private enum Upgrade: Sendable {
    case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
    case refused
  }

  private init(
    messages: AsyncThrowingStream<String, any Error>, outgoing: AsyncStream<WebSocketFrame>.Continuation,
    worker: Task<Void, Never>
  ) {
    self.messages = messages
    self.outgoing = outgoing
    self.worker = worker
  }

  /// Connects to `ws://host:port/path` (loopback only: the DevTools endpoint of a browser this
  /// process started).
  static func connect(
    host: String, port: Int, path: String, maxMessageBytes: Int, connectTimeout: Duration
  ) async throws(ChromiumError) -> WebSocketConnection {
    let channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>
    do {
      let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connectTimeout(.nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000))
        .connect(host: host, port: port) { channel in
          channel.eventLoop.makeCompletedFuture {
            let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
              maxFrameSize: maxMessageBytes,
              upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                  .websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                }
              })
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: "\(host):\(port)")
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
            let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
              upgradeRequestHead: head, upgraders: [upgrader],
              notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { .refused } })
            return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
              configuration: .init(upgradeConfiguration: configuration))
          }
        }
      guard case .websocket(let upgraded) = try await upgrade.get() else {
        throw ChromiumError.devTools(ChromiumMessages.upgradeRefused(port: port))
      }
      channel = upgraded
    } catch let error as ChromiumError {
      throw error
    } catch {
      throw .devTools(ChromiumMessages.connectFailed(port: port, reason: String(describing: error)))
    }
    let (messages, received) = AsyncThrowingStream<String, any Error>.makeStream()
    let (frames, outgoing) = AsyncStream<WebSocketFrame>.makeStream()
    let worker = Task {
      do {
        try await channel.executeThenClose { inbound, outbound in
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
              for await frame in frames { try await outbound.write(frame) }
              try? await outbound.write(Self.clientFrame(.connectionClose, ByteBuffer()))
            }
            group.addTask {
              try await Self.read(inbound, into: received, replies: outgoing, limit: maxMessageBytes)
            }
            _ = try await group.next()
            group.cancelAll()
          }
        }
        received.finish()
      } catch {
        received.finish(throwing: error)
      }
    }
    return WebSocketConnection(messages: messages, outgoing: outgoing, worker: worker)
  }

  /// Sends one text message.
  func send(_ text: String) {
    outgoing.yield(Self.clientFrame(.text, ByteBuffer(string: text)))
  }

  /// Sends a close frame and ends the connection.
  func close() async {
    outgoing.finish()
    _ = await worker.value
  }

  /// A client frame: final, masked with a fresh key (RFC 6455 §5.3).
  private static func clientFrame(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
    WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
  }

  /// Reassembles messages from frames until the server closes.
  private static func read(
    _ inbound: NIOAsyncChannelInboundStream<WebSocketFrame>,
    into received: AsyncThrowingStream<String, any Error>.Continuation,
    replies: AsyncStream<WebSocketFrame>.Continuation, limit: Int
  ) async throws {
    var partial: ByteBuffer?
    for try await frame in inbound {
      switch frame.opcode {
      case .text, .binary, .continuation:
        var data = frame.unmaskedData
        if frame.opcode != .continuation { partial = ByteBuffer() }
        guard var buffer = partial else { continue }
        guard buffer.readableBytes + data.readableBytes <= limit else {
          throw ChromiumError.devTools(ChromiumMessages.messageTooLarge(limit: limit))
        }
        buffer.writeBuffer(&data)
        partial = buffer
        if frame.fin {
          received.yield(String(buffer: buffer))
          partial = nil
        }
      case .ping:
        replies.yield(clientFrame(.pong, frame.unmaskedData))
      case .connectionClose:
        return
      default:
        continue
      }
    }
  }
}
