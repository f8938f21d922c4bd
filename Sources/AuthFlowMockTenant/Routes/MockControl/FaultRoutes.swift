import AuthFlowCore
import Hummingbird

/// `POST /__mock/faults` (add), `GET` (list), `DELETE` (clear).
struct FaultRoutes {
  let tenant: MockTenant

  static func invalid(_ why: String) -> OAuthError {
    OAuthError(status: .badRequest, code: "invalid_request", description: why)
  }

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "mockListFaults": { _, _ in
        Responses.json(.object(["faults": .array(tenant.read({ $0.faults.list() }).map(\.json))]))
      },
      "mockClearFaults": { _, _ in
        tenant.transact { $0.clearFaults() }
        return Responses.empty(status: .noContent)
      },
      "mockAddFault": { request, context in
        guard let parameters = await RequestParameters.body(of: request, context: context) else {
          return OAuthError.malformedBody.response
        }
        guard let endpoint = parameters.string("endpoint"), endpoint.hasPrefix("/") else {
          return Self.invalid("endpoint must be a path prefix starting with /").response
        }
        guard let kind = parameters.string("kind").flatMap(Fault.Kind.init(rawValue:)) else {
          return Self.invalid("kind must be one of status, delay, malformed, drop").response
        }
        // Numbers are read without trapping: a huge, fractional or non-numeric value is a 400.
        let status = parameters.has("status") ? parameters.integer("status") : (kind == .malformed ? 200 : 503)
        guard let status, (200...599).contains(status) else { return Self.invalid("status must be 200-599").response }
        let delay = parameters.has("delay_ms") ? parameters.integer("delay_ms") : 0
        guard let delay, (0...60_000).contains(delay) else {
          return Self.invalid("delay_ms must be 0-60000").response
        }
        let count = parameters.integer("count")
        if parameters.has("count"), (count ?? 0) < 1 { return Self.invalid("count must be at least 1").response }
        let probability = parameters.has("probability") ? parameters.number("probability") : 1
        guard let probability, (0...1).contains(probability) else {
          return Self.invalid("probability must be 0-1").response
        }
        let requested = Fault(
          id: 0, endpoint: endpoint, kind: kind, status: status, delayMilliseconds: delay, remaining: count,
          probability: probability)
        let fault = tenant.transact { $0.addFault(requested) }
        return Responses.json(fault.json, status: .created)
      },
    ]
  }
}
