import Testing

@testable import AuthFlowRuntime

/// An executor only told apart by identity: placement never runs a job on it.
private final class NamedExecutor: TaskExecutor {
  func enqueue(_ job: consuming ExecutorJob) { globalConcurrentExecutor.enqueue(job) }
}

@Suite struct JobPlacementTests {
  @Test func scenariosGoToTheLeastBusyExecutor() {
    let executors = [NamedExecutor(), NamedExecutor()]
    var placement = JobPlacement(executors)
    func slot(_ executor: (any TaskExecutor)?) -> Int? {
      executors.firstIndex { $0 === (executor as AnyObject?) }
    }
    #expect(slot(placement.place(0)) == 0)
    #expect(slot(placement.place(1)) == 1)
    #expect(slot(placement.place(2)) == 0)
    #expect(slot(placement.place(3)) == 1)
    #expect(placement.loads == [2, 2])
    // Two scenarios of the second executor finish: the next two go there.
    placement.finished(1)
    placement.finished(3)
    #expect(placement.loads == [2, 0])
    #expect(slot(placement.place(4)) == 1)
    #expect(slot(placement.place(5)) == 1)
    #expect(placement.loads == [2, 2])
    // A position placed once is freed once.
    placement.finished(4)
    placement.finished(4)
    #expect(placement.loads == [2, 1])
  }

  @Test func withoutExecutorsScenariosRunOnTheTaskPool() {
    var placement = JobPlacement([])
    #expect(placement.place(0) == nil)
    placement.finished(0)
    #expect(placement.loads.isEmpty)
  }
}
