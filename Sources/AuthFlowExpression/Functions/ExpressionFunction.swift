public import AuthFlowCore

/// A function callable from expressions; one type per function, self-describing.
///
/// Each function carries its signature, a one-line summary and examples; the examples run as
/// tests (with the clock at ``FunctionExample/clock``), and documentation is generated from them.
/// Errors a function throws are moved to the call's position by the evaluator, so a function
/// throws them at offset 0 (see ``ExpressionError/argumentType(function:position:expected:got:)``).
/// A function must not put argument values in its error messages: they may be secrets.
public protocol ExpressionFunction: Sendable {
  /// The name expressions call it by: `lower`.
  static var name: String { get }
  /// How many arguments it takes; checked statically and before `call`.
  static var arity: ClosedRange<Int> { get }
  /// `lower(text)`.
  static var signature: String { get }
  /// One line: what it returns.
  static var summary: String { get }
  /// Example calls with their results.
  static var examples: [FunctionExample] { get }

  /// Checks the arguments as written, before anything runs (e.g. a literal regular expression).
  static func check(arguments: [Expr]) -> [ExpressionError]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value
}

extension ExpressionFunction {
  /// Unchecked by default; every built-in function states its arity.
  public static var arity: ClosedRange<Int> { 0...Int.max }
  public static var signature: String { "\(name)(…)" }
  public static var summary: String { "" }
  public static var examples: [FunctionExample] { [] }
  public static func check(arguments: [Expr]) -> [ExpressionError] { [] }
}

/// An example call and the value it gives, e.g. `lower('A@B.C')` → `"a@b.c"`.
public struct FunctionExample: Sendable, Hashable {
  /// A bare expression, without `${{ }}`.
  public var expression: String
  public var result: Value

  /// The Unix time `now()` reads while examples run.
  public static let clock: Double = 1_700_000_000

  public init(_ expression: String, _ result: Value) {
    self.expression = expression
    self.result = result
  }
}
