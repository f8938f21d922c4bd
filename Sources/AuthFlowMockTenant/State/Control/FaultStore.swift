import AuthFlowCore

/// A fault injected under `/__mock/faults` (docs/design.md §4): requests whose path starts with `endpoint`
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
