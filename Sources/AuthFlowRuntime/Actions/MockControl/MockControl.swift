import AuthFlowCore
import AuthFlowHTTP

/// The mock tenant's test-control endpoints under `/__mock/` (docs/design.md §4), for the actions that
/// need them (`outbox`, `mock_clock`, `mock_fault`). Only tenants with the `mock_control`
/// capability have them.
struct MockControl: Sendable {
  static let capability = "mock_control"

  let api: AuthenticationAPI

  /// Fails with a clear message unless the tenant is one with `/__mock/`.
  init(_ context: ActionContext, action: String) throws(ActionError) {
    guard context.tenant.capabilities.contains(Self.capability) else {
      throw .flow(MockControlMessages.notAvailable(action: action, tenant: context.tenant.name))
    }
    self.api = AuthenticationAPI(context)
  }

  /// `POST /__mock/clock/advance`: the mock's virtual time (`now`, `iso`) after the move.
  func advanceClock(by seconds: Double) async throws(ActionError) -> [String: Value] {
    try Self.object(try await api.post("__mock/clock/advance", json: ["seconds": .double(seconds)]))
  }

  /// `GET /__mock/clock`: the mock's virtual time in Unix seconds.
  func clock() async throws(ActionError) -> Double {
    let body = try Self.object(try await api.get("__mock/clock"))
    guard let now = body["now"]?.doubleValue else {
      throw .environment(MockControlMessages.unexpectedBody("__mock/clock"))
    }
    return now
  }

  /// `POST /__mock/faults`: installs a fault; the mock's description of it.
  func addFault(_ fault: [String: Value]) async throws(ActionError) -> [String: Value] {
    try Self.object(try await api.post("__mock/faults", json: fault))
  }

  /// `DELETE /__mock/faults`: removes every fault.
  func clearFaults() async throws(ActionError) {
    let response = try await api.send(HTTPRequest(method: .delete, url: api.url("__mock/faults")))
    guard (200..<300).contains(response.status) else {
      throw .environment(MockControlMessages.failed(response.url, status: response.status))
    }
  }

  /// A control response's JSON object; anything else is the environment misbehaving.
  static func object(_ response: HTTPResponse) throws(ActionError) -> [String: Value] {
    guard (200..<300).contains(response.status), let members = response.jsonValue?.objectValue else {
      throw .environment(MockControlMessages.failed(response.url, status: response.status))
    }
    return members
  }
}

/// The messages of the mock-control actions.
enum MockControlMessages {
  static func notAvailable(action: String, tenant: String) -> String {
    "`\(action)` needs the mock tenant's /__mock/ endpoints; tenant '\(tenant)' does not have the "
      + "`mock_control` capability (add `requires: [mock_control]` to the scenario)"
  }

  static func failed(_ url: String, status: Int) -> String {
    "the mock's control endpoint \(SensitiveData.maskURL(url)) answered HTTP \(status)"
  }

  static func unexpectedBody(_ path: String) -> String {
    "the mock's control endpoint /\(path) answered an unexpected body"
  }
}
