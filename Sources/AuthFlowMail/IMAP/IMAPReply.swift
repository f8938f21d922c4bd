/// Everything the server answered to one command: the untagged data it sent on the way and the
/// tagged completion.
struct IMAPReply: Sendable {
  let command: String
  let status: IMAPStatus
  let text: IMAPResponseText
  let untagged: [IMAPUntaggedResponse]

  /// Capabilities from an untagged `CAPABILITY` or a `[CAPABILITY …]` code, if either came.
  var capabilities: Set<String>? {
    if case .capability(let names) = text.code { return names }
    for response in untagged.reversed() {
      if case .capability(let names) = response { return names }
      if case .status(_, let text) = response, case .capability(let names) = text.code { return names }
    }
    return nil
  }

  /// Throws unless the command completed with `OK`: `NO` and `BAD` are protocol errors.
  func requireOK() throws(IMAPError) {
    switch status {
    case .ok: return
    case .no: throw .commandFailed(command, text.text)
    default: throw .commandRejected(command, text.text)
    }
  }
}

extension IMAPError {
  static func commandFailed(_ command: String, _ text: String) -> IMAPError {
    IMAPError(.protocolError, "the server answered NO to \(command): \(text)", command: command, serverText: text)
  }

  static func commandRejected(_ command: String, _ text: String) -> IMAPError {
    IMAPError(.protocolError, "the server answered BAD to \(command): \(text)", command: command, serverText: text)
  }
}
