import AuthFlowEventLoop
import NIOCore
import NIOPosix
import Testing

/// A default actor: called from a task preferring a loop, it runs on that loop too.
private actor Probe {
  func onLoop(_ loop: any EventLoop) -> Bool { loop.inEventLoop }
}

@Suite struct EventLoopTaskExecutorTests {
  let group = MultiThreadedEventLoopGroup.singleton

  @Test func aTaskPreferringTheExecutorRunsOnItsLoopAcrossSuspensions() async throws {
    for executor in EventLoopTaskExecutor.executors(of: group) {
      let loop = executor.eventLoop
      let placed = await withTaskExecutorPreference(executor) { () async -> [Bool] in
        var seen = [loop.inEventLoop]
        await Task.yield()
        seen.append(loop.inEventLoop)
        // A future the loop completes resumes the task there.
        _ = try? await loop.scheduleTask(in: .milliseconds(1)) {}.futureResult.get()
        seen.append(loop.inEventLoop)
        seen.append(await Probe().onLoop(loop))
        // Child tasks inherit the preference.
        seen.append(
          await withTaskGroup(of: Bool.self) { group in
            group.addTask { loop.inEventLoop }
            return await group.next() ?? false
          })
        return seen
      }
      #expect(placed == [true, true, true, true, true], "on \(loop): \(placed)")
    }
  }

  @Test func withoutThePreferenceTheTaskIsNotOnALoop() async {
    #expect(MultiThreadedEventLoopGroup.currentEventLoop == nil)
  }

  @Test func oneExecutorPerLoopOfTheGroup() throws {
    let executors = EventLoopTaskExecutor.executors(of: group)
    #expect(executors.count == System.coreCount)
    #expect(Set(executors.map { ObjectIdentifier($0.eventLoop) }).count == executors.count)
  }
}

@Suite struct DeadlineSleepTests {
  let executor = EventLoopTaskExecutor.executors(of: MultiThreadedEventLoopGroup.singleton)[0]

  @Test func aSleepOnALoopLastsItsDuration() async throws {
    let clock = ContinuousClock()
    let loop = executor.eventLoop
    let (elapsed, onLoop) = try await withTaskExecutorPreference(executor) {
      let started = clock.now
      try await DeadlineSleep.sleep(for: .milliseconds(30))
      return (clock.now - started, loop.inEventLoop)
    }
    #expect(elapsed >= .milliseconds(30))
    #expect(onLoop)
  }

  @Test func aSleepOffALoopLastsItsDurationToo() async throws {
    let clock = ContinuousClock()
    let started = clock.now
    try await DeadlineSleep.sleep(for: .milliseconds(30))
    #expect(clock.now - started >= .milliseconds(30))
  }

  /// A deadline that did not pass: the cancelled sleep ends at once with `CancellationError`,
  /// on the loop and off it.
  @Test(arguments: [true, false]) func aCancelledSleepEndsAtOnce(onLoop: Bool) async throws {
    let clock = ContinuousClock()
    let started = clock.now
    let sleeper = Task(executorPreference: onLoop ? executor : nil) { () async -> (any Error)? in
      do {
        try await DeadlineSleep.sleep(for: .seconds(3600))
        return nil
      } catch {
        return error
      }
    }
    try await Task.sleep(for: .milliseconds(20))
    sleeper.cancel()
    let error = await sleeper.value
    #expect(error is CancellationError)
    #expect(clock.now - started < .seconds(30))
  }

  @Test func aSleepStartedCancelledThrowsWithoutWaiting() async {
    let sleeper = Task(executorPreference: executor) { () async -> (any Error)? in
      withUnsafeCurrentTask { $0?.cancel() }
      do {
        try await DeadlineSleep.sleep(for: .seconds(3600))
        return nil
      } catch {
        return error
      }
    }
    #expect(await sleeper.value is CancellationError)
  }

  /// Many sleeps raced and cancelled, as a run's deadlines are: each ends once, none hangs.
  @Test func racedSleepsEachEndOnce() async throws {
    let outcomes = await withTaskExecutorPreference(executor) {
      await withTaskGroup(of: Bool.self) { group in
        for index in 0..<500 {
          group.addTask {
            let sleeper = Task(executorPreference: executor) {
              try await DeadlineSleep.sleep(for: .milliseconds(index % 3))
            }
            if index.isMultiple(of: 2) { sleeper.cancel() }
            return (try? await sleeper.value) != nil
          }
        }
        var finished = 0
        for await _ in group { finished += 1 }
        return finished
      }
    }
    #expect(outcomes == 500)
  }

  @Test func durationsBeyondNanosecondsSaturate() {
    #expect(TimeAmount(saturating: .seconds(Int64.max)).nanoseconds == .max)
    #expect(TimeAmount(saturating: .seconds(-5)).nanoseconds == 0)
    #expect(TimeAmount(saturating: .milliseconds(1500)).nanoseconds == 1_500_000_000)
  }
}
