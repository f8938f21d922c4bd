/// Why a message could not be decoded: which limit was exceeded, with the numbers involved.
///
/// Malformed content is otherwise decoded on a best-effort basis; only resource limits fail.
public struct MIMEError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The closed set of failures.
  public enum Kind: Sendable, Hashable {
    /// The raw message is larger than ``MIMELimits/messageBytes``.
    case messageTooLarge
    /// An entity's header section is larger than ``MIMELimits/headerBytes``.
    case headerTooLarge
    /// `multipart/*` entities nest deeper than ``MIMELimits/depth``.
    case nestingTooDeep
    /// The tree holds more parts than ``MIMELimits/parts``.
    case tooManyParts
  }

  /// What went wrong.
  public let kind: Kind
  /// The size, depth or count that was reached.
  public let actual: Int
  /// The limit that it exceeded.
  public let limit: Int
  /// A sentence saying what went wrong, for logs and reports.
  public let message: String

  /// The same as ``message``.
  public var description: String { message }

  static func messageTooLarge(_ bytes: Int, limit: Int) -> Self {
    Self(kind: .messageTooLarge, actual: bytes, limit: limit, message: "message of \(bytes) bytes exceeds \(limit)")
  }

  static func headerTooLarge(_ bytes: Int, limit: Int) -> Self {
    Self(kind: .headerTooLarge, actual: bytes, limit: limit, message: "header section over \(limit) bytes")
  }

  static func nestingTooDeep(_ depth: Int, limit: Int) -> Self {
    Self(
      kind: .nestingTooDeep, actual: depth, limit: limit,
      message: "multipart nesting depth \(depth) exceeds \(limit)")
  }

  static func tooManyParts(_ count: Int, limit: Int) -> Self {
    Self(kind: .tooManyParts, actual: count, limit: limit, message: "more than \(limit) MIME parts")
  }
}
