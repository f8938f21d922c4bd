import AuthFlowCore
import AuthFlowHTTP

/// The chromium browser contexts of one scenario, by browser name: steps naming the same browser
/// share its cookies (an SSO session), different names and different scenarios never do. Closed
/// when the scenario ends.
actor ChromiumSessions {
  let host: ChromiumHost
  private var contexts: [String: String] = [:]

  init(host: ChromiumHost) {
    self.host = host
  }

  /// The context of the browser `name`, created on first use (chromium starts then, once per run).
  func context(named name: String) async throws(ChromiumError) -> String {
    if let existing = contexts[name] { return existing }
    let created = try await host.createContext()
    if let raced = contexts[name] {
      await host.disposeContext(created)
      return raced
    }
    contexts[name] = created
    return created
  }

  /// Disposes every context of the scenario (in a task of its own, so that an interrupted
  /// scenario's contexts go too).
  func close() async {
    let all = Array(contexts.values)
    contexts.removeAll()
    guard !all.isEmpty else { return }
    let host = self.host
    await Task {
      for context in all { await host.disposeContext(context) }
    }.value
  }
}
