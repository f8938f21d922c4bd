import NIOCore

extension IMAPClient {
  /// Sends `command` under a new tag and reads until its tagged completion, all within
  /// ``IMAPConfiguration/commandTimeout``. Waits for `+` between chunks that need one.
  /// Untagged data is kept (bounded by ``IMAPConfiguration/Limits/maxBufferedBytes``); a `BYE`
  /// followed by the connection closing is reported with the server's text.
  func execute(_ command: IMAPCommand) async throws(IMAPError) -> IMAPReply {
    guard let connection else { throw .notConnected(command.name) }
    let tag = nextTag()
    let deadline = NIODeadline.now() + TimeAmount(configuration.commandTimeout)
    let purpose = "the response to \(command.name)"
    let chunks = command.chunks(tag: tag, literalPlus: capabilities.contains("LITERAL+"))
    var untagged: [IMAPUntaggedResponse] = []
    var keptBytes = 0
    var farewell: String?
    do throws(IMAPError) {
      for (index, chunk) in chunks.enumerated() {
        try await connection.send(chunk)
        let last = index == chunks.count - 1
        while true {
          let frame = try await connection.next(deadline: deadline, waitingFor: purpose)
          keptBytes += frame.byteCount
          if keptBytes > configuration.limits.maxBufferedBytes {
            throw IMAPError.responseTooLarge(limit: configuration.limits.maxBufferedBytes)
          }
          switch try IMAPResponse(parsing: frame) {
          case .continuation:
            guard !last else { throw IMAPError.unexpectedContinuation(command.name) }
          case .untagged(let response):
            if case .status(.bye, let text) = response { farewell = text.text }
            untagged.append(response)
            continue
          case .tagged(let replyTag, let status, let text):
            guard replyTag == tag else { throw IMAPError.wrongTag(command.name, expected: tag, got: replyTag) }
            return IMAPReply(command: command.name, status: status, text: text, untagged: untagged)
          }
          break
        }
      }
    } catch {
      await close()
      if error.kind == .closed, let farewell { throw .serverSaidBye(command.name, farewell) }
      throw error
    }
    // Unreachable: the last chunk's loop only ends by returning or throwing.
    throw .unexpectedContinuation(command.name)
  }
}

extension IMAPError {
  static func notConnected(_ command: String) -> IMAPError {
    IMAPError(.closed, "cannot send \(command): the client is not connected", command: command)
  }

  static func unexpectedContinuation(_ command: String) -> IMAPError {
    IMAPError(
      .protocolError, "the server asked to continue \(command), which had nothing more to send", command: command)
  }

  static func wrongTag(_ command: String, expected: String, got: String) -> IMAPError {
    IMAPError(
      .protocolError, "the server completed tag \(got.prefix(20)) while \(command) (\(expected)) was running",
      command: command)
  }

  static func serverSaidBye(_ command: String, _ text: String) -> IMAPError {
    IMAPError(
      .closed, "the server closed the connection during \(command): \(text)", command: command, serverText: text)
  }
}
