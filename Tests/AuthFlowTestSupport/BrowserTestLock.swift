/// One headless chromium at a time across every test target of the test process: each browser
/// test holds this lock while its chromium runs, so the browser suites of different targets do not
/// load a shared machine with several browsers at once.
public actor BrowserTestLock {
  public static let shared = BrowserTestLock()

  private var held = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// Runs `body` while holding the lock.
  public static func run<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
    await shared.acquire()
    do {
      let result = try await body()
      await shared.release()
      return result
    } catch {
      await shared.release()
      throw error
    }
  }

  private func acquire() async {
    guard held else {
      held = true
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  private func release() {
    if waiting.isEmpty {
      held = false
    } else {
      waiting.removeFirst().resume()
    }
  }
}
