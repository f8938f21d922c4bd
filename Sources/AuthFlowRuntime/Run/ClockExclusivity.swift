import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// The mock tenant's virtual clock is one for the whole run: a `mock_clock` step moving it would
/// expire the codes and tokens of any scenario running at the same time. So the ``Runner`` runs a
/// scenario with a step whose action moves the clock (known from its steps, before it runs) alone — no other
/// scenario runs while it does, readers–writer style — and puts the clock back afterwards.
extension ScenarioInstance {
  /// True when a step or cleanup step of the scenario moves the mock's clock (its action declares
  /// ``MockClockUse/movesExclusively``, as `mock_clock` does).
  public var movesMockClock: Bool {
    (scenario.steps + scenario.cleanup).contains {
      ActionRegistry.action(named: $0.action.name.value)?.traits.mockClock == .movesExclusively
    }
  }
}

/// Reads the mock's clock offset before an exclusive scenario and restores it after
/// (`GET /__mock/clock` → `offset`; `POST /__mock/clock/advance` by the difference).
struct MockClockRestore: Sendable {
  let baseURL: String
  let transport: any HTTPTransport

  init?(tenant: TenantContext, transport: any HTTPTransport) {
    guard tenant.capabilities.contains(MockControl.capability) else { return nil }
    self.baseURL = tenant.baseURL
    self.transport = transport
  }

  /// The clock's offset from real time, in seconds; nil when it cannot be read.
  func offset() async -> Double? {
    let response = try? await transport.send(HTTPRequest(method: .get, url: baseURL + "__mock/clock"))
    guard let response, response.status == 200 else { return nil }
    return response.jsonValue?.member("offset")?.doubleValue
  }

  /// Moves the clock back to `offset`; best effort (a mock that went away has no clock to fix).
  func restore(to offset: Double) async {
    guard let current = await self.offset(), current != offset else { return }
    let request = HTTPRequest.json(
      .post, url: baseURL + "__mock/clock/advance", body: .object(["seconds": .double(offset - current)]))
    _ = try? await transport.send(request)
  }
}
