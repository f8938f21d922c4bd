import AuthFlowCore
import Hummingbird

/// A fault injected under `/__mock/faults` (DESIGN §4): requests whose path starts with `endpoint`
/// get an error status, a delay, a malformed (non-JSON) body, or a dropped connection; `count`
/// bounds how many requests it hits, `probability` makes it random.
struct Fault: Sendable {
  enum Kind: String, Sendable, CaseIterable { case status, delay, malformed, drop }

  var id: Int
  var endpoint: String
  var kind: Kind
  var status: Int
  var delayMilliseconds: Int
  /// Requests left to hit; nil is unlimited.
  var remaining: Int?
  var probability: Double

  var json: Value {
    var members: [String: Value] = [
      "id": .int(id), "endpoint": .string(endpoint), "kind": .string(kind.rawValue), "status": .int(status),
      "delay_ms": .int(delayMilliseconds), "probability": .double(probability),
    ]
    if let remaining { members["count"] = .int(remaining) }
    return .object(members)
  }
}

/// The active faults.
struct FaultStore: Sendable {
  private var faults: [Fault] = []
  private var nextID = 1

  mutating func add(_ fault: Fault) -> Fault {
    var added = fault
    added.id = nextID
    nextID += 1
    faults.append(added)
    return added
  }

  func list() -> [Fault] { faults }

  mutating func removeAll() { faults.removeAll() }

  /// The fault for `path`, counted; exhausted faults are dropped.
  mutating func take(for path: String) -> Fault? {
    guard let index = faults.firstIndex(where: { path.hasPrefix($0.endpoint) }) else { return nil }
    var fault = faults[index]
    guard fault.probability >= 1 || Double.random(in: 0..<1) < fault.probability else { return nil }
    if let remaining = fault.remaining {
      fault.remaining = remaining - 1
      if remaining <= 1 { faults.remove(at: index) } else { faults[index] = fault }
    }
    return fault
  }

  var count: Int { faults.count }
}

/// Applies faults before routing; `/__mock/` itself is never faulted.
struct FaultMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let tenant: MockTenant

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path = request.uri.path
    guard !path.hasPrefix("/__mock/"), let fault = tenant.withState({ $0.faults.take(for: path) }) else {
      return try await next(request, context)
    }
    switch fault.kind {
    case .delay:
      try? await Task.sleep(for: .milliseconds(fault.delayMilliseconds))
      return try await next(request, context)
    case .status:
      return OAuthError(
        status: HTTPResponse.Status(code: fault.status), code: "injected_fault",
        description: "Fault injected by /__mock/faults"
      ).response
    case .drop:
      return DroppedConnection.response
    case .malformed:
      return Response(
        status: HTTPResponse.Status(code: fault.status),
        headers: [.contentType: "application/json; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"access_token\": <html>malformed")))
    }
  }
}

/// The `drop` fault. A Hummingbird handler has no handle on its channel, so the connection is
/// dropped from the response body: the head goes out without a length (chunked), then the body
/// writer fails, and Hummingbird closes the channel without the terminating chunk. Clients see the
/// connection closed mid-response (AsyncHTTPClient: `remoteConnectionClosed`), never a complete
/// response.
enum DroppedConnection {
  struct Dropped: Error {}

  static var response: Response {
    Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8", .connection: "close"],
      body: ResponseBody { _ in throw Dropped() })
  }
}

/// `POST /__mock/faults` (add), `GET` (list), `DELETE` (clear).
struct FaultRoutes {
  let tenant: MockTenant

  static func invalid(_ why: String) -> OAuthError {
    OAuthError(status: .badRequest, code: "invalid_request", description: why)
  }

  func register(on router: Router<BasicRequestContext>) {
    router.get("/__mock/faults") { _, _ in
      Responses.json(.object(["faults": .array(tenant.withState({ $0.faults.list() }).map(\.json))]))
    }
    router.delete("/__mock/faults") { _, _ in
      tenant.withState { $0.faults.removeAll() }
      return Responses.empty(status: .noContent)
    }
    router.post("/__mock/faults") { request, context in
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
      let fault = tenant.withState({
        $0.faults.add(
          Fault(
            id: 0, endpoint: endpoint, kind: kind, status: status, delayMilliseconds: delay, remaining: count,
            probability: probability))
      })
      return Responses.json(fault.json, status: .created)
    }
  }
}
