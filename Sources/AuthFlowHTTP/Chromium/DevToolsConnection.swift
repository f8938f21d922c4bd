import AuthFlowCore
import Foundation

/// One event of the DevTools protocol: its method (`Fetch.requestPaused`), parameters, and the
/// session (page) it belongs to.
struct DevToolsEvent: Sendable {
  var method: String
  var params: Value
  var sessionID: String?
}

/// The Chrome DevTools Protocol over one WebSocket: numbered commands answered by id, each with a
/// deadline, and events delivered to the listener of their session.
actor DevToolsConnection {
  private let socket: WebSocketConnection
  private var nextID = 1
  private var pending: [Int: CheckedContinuation<Result<Value, ChromiumError>, Never>] = [:]
  private var listeners: [String: AsyncStream<DevToolsEvent>.Continuation] = [:]
  private var closed = false
  private var reader: Task<Void, Never>?

  init(socket: WebSocketConnection) {
    self.socket = socket
  }

  /// Starts reading the socket; call once.
  func start() {
    let socket = self.socket
    reader = Task { [weak self] in
      do {
        for try await message in socket.messages {
          await self?.receive(message)
        }
      } catch {}
      await self?.disconnect()
    }
  }

  /// The events of one session (a page), until ``stopListening(session:)`` or the connection
  /// closes.
  func listen(session: String) -> AsyncStream<DevToolsEvent> {
    let (stream, continuation) = AsyncStream<DevToolsEvent>.makeStream()
    if closed {
      continuation.finish()
    } else {
      listeners[session] = continuation
    }
    return stream
  }

  func stopListening(session: String) {
    listeners.removeValue(forKey: session)?.finish()
  }

  /// Sends a command and waits for its answer, at most `timeout`; a cancelled task stops waiting.
  func command(
    _ method: String, _ params: Value = .object([:]), session: String? = nil, timeout: Duration
  ) async throws(ChromiumError) -> Value {
    guard !closed else { throw .devTools(ChromiumMessages.disconnected) }
    let id = nextID
    nextID += 1
    var message: [String: Value] = ["id": .int(id), "method": .string(method), "params": params]
    if let session { message["sessionId"] = .string(session) }
    let text = Value.object(message).jsonText(revealSecrets: true)
    let timer = Task { [weak self] in
      try? await DeadlineSleep.sleep(for: timeout)
      await self?.resolve(id, with: .failure(.devTools(ChromiumMessages.commandTimedOut(method, after: timeout))))
    }
    defer { timer.cancel() }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        pending[id] = continuation
        socket.send(text)
      }
    } onCancel: {
      Task { await self.resolve(id, with: .failure(.devTools(ChromiumMessages.stopped))) }
    }
    let answer = try result.get()
    if let error = answer.member("error") {
      let text = error.member("message")?.stringValue ?? error.jsonText()
      throw .devTools(ChromiumMessages.commandFailed(method, message: text))
    }
    return answer.member("result") ?? .object([:])
  }

  /// Closes the WebSocket; pending commands fail.
  func close() async {
    await socket.close()
    disconnect()
  }

  private func resolve(_ id: Int, with result: Result<Value, ChromiumError>) {
    pending.removeValue(forKey: id)?.resume(returning: result)
  }

  private func receive(_ message: String) {
    guard let value = try? Value(jsonText: message) else { return }
    if let id = value.member("id")?.intValue {
      resolve(id, with: .success(value))
      return
    }
    guard let method = value.member("method")?.stringValue else { return }
    let session = value.member("sessionId")?.stringValue
    guard let session, let listener = listeners[session] else { return }
    listener.yield(DevToolsEvent(method: method, params: value.member("params") ?? .null, sessionID: session))
  }

  private func disconnect() {
    closed = true
    for continuation in pending.values {
      continuation.resume(returning: .failure(.devTools(ChromiumMessages.disconnected)))
    }
    pending.removeAll()
    for listener in listeners.values { listener.finish() }
    listeners.removeAll()
  }
}
