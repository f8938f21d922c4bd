/// The resource bounds of one ``MIMEDecoder/decode(_:limits:)`` call.
///
/// Every bound is checked before the work it guards, so that a hostile message costs at most
/// linear time in its size and never more memory than a few copies of it.
public struct MIMELimits: Sendable, Hashable {
  /// The largest raw message accepted, in bytes (default 10 MiB).
  public var messageBytes: Int
  /// The deepest nesting of `multipart/*` entities (default 8; the top-level entity is depth 0).
  public var depth: Int
  /// The most body parts in the whole tree, counting every entity (default 100).
  public var parts: Int
  /// The largest header section of any entity, in bytes (default 256 KiB).
  public var headerBytes: Int

  /// Creates limits; every default suits a mail catcher for test messages.
  public init(
    messageBytes: Int = 10 * 1024 * 1024, depth: Int = 8, parts: Int = 100, headerBytes: Int = 256 * 1024
  ) {
    self.messageBytes = messageBytes
    self.depth = depth
    self.parts = parts
    self.headerBytes = headerBytes
  }
}
