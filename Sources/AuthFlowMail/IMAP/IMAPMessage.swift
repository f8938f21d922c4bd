/// One message read from a mailbox: its UID and its bytes exactly as the server sent them.
public struct IMAPMessage: Sendable, Hashable {
  /// The message's UID in the selected mailbox.
  public var uid: UInt32
  /// The whole message (`BODY[]`): headers and body, CRLF line ends, not decoded.
  public var raw: [UInt8]

  /// A message with its UID and raw bytes.
  public init(uid: UInt32, raw: [UInt8]) {
    self.uid = uid
    self.raw = raw
  }
}
