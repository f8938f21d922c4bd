/// How much a ``MessageStore`` keeps; past any bound, the oldest messages go first.
public struct MessageStoreLimits: Sendable, Hashable {
  /// The most messages kept (default 1000).
  public var count: Int
  /// The most raw bytes kept, summed over messages (default 50 MiB).
  public var bytes: Int
  /// How long a message is kept (default one hour).
  public var age: Duration

  /// Creates limits.
  public init(count: Int = 1000, bytes: Int = 50 * 1024 * 1024, age: Duration = .seconds(3600)) {
    self.count = count
    self.bytes = bytes
    self.age = age
  }
}
