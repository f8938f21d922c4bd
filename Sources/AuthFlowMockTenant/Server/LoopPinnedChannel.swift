import AuthFlowEventLoop
import HummingbirdCore
import Logging
import NIOCore

/// A server child channel whose requests are answered on the connection's own event loop.
///
/// Hummingbird answers each connection in a task on the shared task pool: every request then
/// crosses from the loop that read it to a pool thread and back to the loop to be written. With
/// the connection's task preferring its loop (``EventLoopTaskExecutor``), reading, routing,
/// signing and writing run on one thread (docs/benchmarks.md, "One thread per exchange"). The
/// requests, their limits and their answers are the wrapped channel's.
struct LoopPinnedChannel<Inner: ServerChildChannel>: ServerChildChannel {
  typealias Value = Inner.Value

  let inner: Inner

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    inner.setup(channel: channel, logger: logger)
  }

  func handle(value: Value, logger: Logger) async {
    await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
      await inner.handle(value: value, logger: logger)
    }
  }
}
