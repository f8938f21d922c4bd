public import AuthFlowRuntime
import Synchronization

/// An ``InboxHost`` whose receivers are shared: a start with the settings of a receiver already
/// running returns that receiver, and it stops when the last holder stops it. A long-lived
/// process that binds a new set of tenants before retiring the old one (the monitor's reload)
/// would otherwise start a second receiver on a port the first still holds ("address in use"),
/// and lose the messages the first had received.
public final class SharedInboxHost: InboxHost {
  private let base: any InboxHost
  private let receivers = Receivers()

  public init(_ base: any InboxHost) {
    self.base = base
  }

  public func start(_ settings: InboxReceiverSettings) async throws(TenantResolutionError) -> any RunningInboxReceiver {
    let key = Key(settings)
    if let shared = await receivers.retain(key) { return shared }
    let started = try await base.start(settings)
    return await receivers.add(started, key: key)
  }

  public func imapReader(_ settings: IMAPReaderSettings) -> any InboxMessageReader {
    base.imapReader(settings)
  }

  public func sendTestMessage(
    to address: String, subject: String, text: String, host: String, port: Int
  ) async throws(InboxReadFailure) {
    try await base.sendTestMessage(to: address, subject: subject, text: text, host: host, port: port)
  }

  /// What makes two receivers the same: every setting (a port of 0 is "any free port": each such
  /// start is its own receiver).
  struct Key: Hashable, Sendable {
    var host: String
    var port: Int
    var certificatePath: String?
    var keyPath: String?
    var requireTLS: Bool
    var user: String?
    var password: String?
    var maxMessageBytes: Int?
    var unique: Int?

    init(_ settings: InboxReceiverSettings) {
      host = settings.host
      port = settings.port
      certificatePath = settings.certificatePath
      keyPath = settings.keyPath
      requireTLS = settings.requireTLS
      user = settings.user
      password = settings.password
      maxMessageBytes = settings.maxMessageBytes
    }
  }

  actor Receivers {
    private var running: [Key: (receiver: any RunningInboxReceiver, holders: Int)] = [:]
    private var nextUnique = 0

    /// The running receiver for `key`, held once more; nil when none runs (or the port is 0).
    func retain(_ key: Key) -> (any RunningInboxReceiver)? {
      guard key.port != 0, let entry = running[key] else { return nil }
      running[key] = (entry.receiver, entry.holders + 1)
      return Handle(receiver: entry.receiver, key: key, receivers: self)
    }

    func add(_ receiver: any RunningInboxReceiver, key: Key) -> any RunningInboxReceiver {
      var key = key
      if key.port == 0 {
        nextUnique += 1
        key.unique = nextUnique
      }
      running[key] = (receiver, 1)
      return Handle(receiver: receiver, key: key, receivers: self)
    }

    /// One holder fewer; the receiver when that was the last (to be stopped), else nil.
    func release(_ key: Key) -> (any RunningInboxReceiver)? {
      guard let entry = running[key] else { return nil }
      if entry.holders > 1 {
        running[key] = (entry.receiver, entry.holders - 1)
        return nil
      }
      running[key] = nil
      return entry.receiver
    }
  }

  /// One holder's view of a shared receiver: stopping it lets go (once, however often it is
  /// stopped); the last holder's stop stops the receiver.
  final class Handle: RunningInboxReceiver {
    let receiver: any RunningInboxReceiver
    let key: Key
    let receivers: Receivers
    private let stopped = Mutex(false)

    init(receiver: any RunningInboxReceiver, key: Key, receivers: Receivers) {
      self.receiver = receiver
      self.key = key
      self.receivers = receivers
    }

    var apiURL: String { receiver.apiURL }
    var smtpPort: Int { receiver.smtpPort }

    func stop() async {
      let first = stopped.withLock { stopped in
        defer { stopped = true }
        return !stopped
      }
      guard first else { return }
      await receivers.release(key)?.stop()
    }
  }
}
