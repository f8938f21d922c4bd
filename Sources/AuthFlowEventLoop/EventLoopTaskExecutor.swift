public import NIOCore

/// A task executor that runs its jobs on one NIO event loop.
///
/// A task that prefers it (`withTaskExecutorPreference`, `addTask(executorPreference:)`) runs
/// where its socket's reads and writes run: a continuation the loop resumes, a write the task
/// makes, are a call on the same thread instead of a hand-off between the task pool and the loop
/// (docs/benchmarks.md, "One thread per exchange"). Default actors the task calls run there too.
public final class EventLoopTaskExecutor: TaskExecutor {
  /// The loop the jobs run on.
  public let eventLoop: any EventLoop

  public init(_ eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  /// One executor per loop of `group`, in the group's order.
  public static func executors(of group: any EventLoopGroup) -> [EventLoopTaskExecutor] {
    group.makeIterator().map { EventLoopTaskExecutor($0) }
  }
}
