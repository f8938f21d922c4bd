// CONTRACT STUB — the Expression helper replaces this file with the real implementation, keeping
// these public names and signatures (it may add to them).
public import AuthFlowCore

/// A parsed `${{ … }}` expression.
public indirect enum Expr: Sendable, Hashable {
  case literal(Value, offset: Int)
}

/// A syntax error, unknown name or unknown function inside an expression; `offset` and `length`
/// are in characters from the start of the enclosing string (so the caller can add the column).
public struct ExpressionError: Error, Sendable, Hashable {
  public var message: String
  public var offset: Int
  public var length: Int
  public var hint: String?

  public init(_ message: String, offset: Int, length: Int = 1, hint: String? = nil) {
    self.message = message
    self.offset = offset
    self.length = length
    self.hint = hint
  }
}

/// A string that contains `${{ … }}`.
public enum TemplateString: Sendable, Hashable {
  /// The whole string is one expression: it keeps the expression's type.
  case whole(Expr, offset: Int)
  /// Text and expressions interpolated into a string.
  case interpolated([TemplatePart])

  /// Parses `text`; `.success(nil)` when it contains no expression.
  public static func parse(_ text: String) -> Result<TemplateString?, ExpressionError> {
    .success(nil)
  }

  public func evaluate(in context: EvaluationContext) throws(ExpressionError) -> Value {
    .null
  }
}

public enum TemplatePart: Sendable, Hashable {
  case text(String)
  case expression(Expr, offset: Int)
}

/// What expressions see: the roots (`vars`, `steps`, `tenant`, …) and the functions.
public struct EvaluationContext: Sendable {
  public var roots: [String: Value]
  public var functions: FunctionRegistry

  public init(roots: [String: Value], functions: FunctionRegistry = .standard) {
    self.roots = roots
    self.functions = functions
  }
}

/// A function callable from expressions; one type per function, self-describing.
public protocol ExpressionFunction: Sendable {
  static var name: String { get }
  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value
}

/// The sorted registry of functions.
public struct FunctionRegistry: Sendable {
  public var functions: [String: any ExpressionFunction]

  public init(_ functions: [any ExpressionFunction]) {
    self.functions = Dictionary(functions.map { (type(of: $0).name, $0) }, uniquingKeysWith: { a, _ in a })
  }

  public static let standard = FunctionRegistry([])
}
