/// What ``MIMEDecoder`` reads from a message: its headers, addresses, subject and readable bodies.
public struct DecodedMessage: Sendable, Hashable {
  /// The top-level header fields, unfolded.
  public var headers: MIMEHeaders
  /// The first address of `From`, or `""`.
  public var from: String
  /// The addresses of every `To` field.
  public var to: [String]
  /// The addresses of every `Cc` field.
  public var cc: [String]
  /// The `Subject`, encoded-words decoded; `""` when absent.
  public var subject: String
  /// The `Date` field as written.
  public var date: String?
  /// The `Message-ID` field, without its angle brackets.
  public var messageID: String?
  /// The first `text/plain` body that is not an attachment, or text derived from the HTML body.
  public var text: String
  /// The first `text/html` body that is not an attachment.
  public var html: String?
  /// The file names of the parts marked as attachments (or named), in order.
  public var attachmentNames: [String]
}
