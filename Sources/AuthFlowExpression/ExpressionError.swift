/// A syntax error, unknown name, unknown function or evaluation failure inside an expression.
///
/// `offset` and `length` are in unicode scalars from the start of the enclosing string, so the
/// caller adds the YAML column. Messages never contain the values involved (they may be secrets),
/// only their types. The catalogue of messages is in `ExpressionError+Messages.swift`.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public var offset: Int
  public var length: Int
  /// How to fix it ("did you mean 'lower'?").
  public var hint: String?

  public init(_ message: String, offset: Int, length: Int = 1, hint: String? = nil) {
    self.message = message
    self.offset = offset
    self.length = length
    self.hint = hint
  }

  /// The same error moved to another span (used to point a function's error at its call).
  public func located(at offset: Int, length: Int) -> ExpressionError {
    ExpressionError(message, offset: offset, length: length, hint: hint)
  }

  /// `message (hint)`.
  public var description: String {
    hint.map { "\(message) (\($0))" } ?? message
  }
}
