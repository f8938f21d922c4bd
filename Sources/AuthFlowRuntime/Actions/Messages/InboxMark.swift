import AuthFlowCore
import AuthFlowScenario

/// What the tenant's inbox held when a step started: the id of its newest message, to anyone.
/// Every source numbers its messages in the order they arrive (the mock's outbox, an `authflow
/// inbox`, an IMAP mailbox's UIDs), so "received after step X started" is "an id above X's
/// mark" — no clock compared: the mock's clock is virtual and a mail server keeps its own.
enum InboxMark: Sendable, Equatable {
  case lastID(Int)
  /// The inbox could not be read when the step started: why (masked).
  case unreadable(String)

  /// The ids of the steps that some step's inbox-mark parameter names (literal ids: the parser
  /// refuses an expression there).
  static func markedSteps(in steps: [Step]) -> Set<String> {
    var marked: Set<String> = []
    for step in steps {
      guard let parameter = ActionRegistry.action(named: step.action.name.value)?.traits.inboxMarkParameter,
        case .literal(.string(let id), _)? = step.action.parameters.member(parameter)
      else { continue }
      marked.insert(id)
    }
    return marked
  }
}
