import NIOCore
import Synchronization

/// The listener and the open connections of one receiver: counts them against the limit and
/// finds them all again to close them.
final class SMTPConnectionRegistry: Sendable {
  private struct State {
    var server: (any Channel)?
    var connections: [ObjectIdentifier: any Channel] = [:]
    var isShutDown = false
  }

  private let state = Mutex(State())

  /// Records the listener; `false` when the registry was already shut down or holds one.
  func setServer(_ channel: any Channel) -> Bool {
    state.withLock { state in
      guard !state.isShutDown, state.server == nil else { return false }
      state.server = channel
      return true
    }
  }

  /// Records a new connection; `false` (and not recorded) when it is one too many or the receiver
  /// is stopping.
  func admit(_ channel: any Channel, limit: Int) -> Bool {
    state.withLock { state in
      guard !state.isShutDown, state.connections.count < limit else { return false }
      state.connections[ObjectIdentifier(channel)] = channel
      return true
    }
  }

  func remove(_ channel: any Channel) {
    _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  /// Marks the registry shut down and hands back everything to close.
  func shutDown() -> (server: (any Channel)?, connections: [any Channel]) {
    state.withLock { state in
      state.isShutDown = true
      let result = (state.server, Array(state.connections.values))
      state.server = nil
      return result
    }
  }
}
