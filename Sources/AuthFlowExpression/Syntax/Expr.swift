public import AuthFlowCore

/// A parsed `${{ … }}` expression.
///
/// Every offset is a unicode-scalar offset from the start of the enclosing string (the YAML
/// scalar), so a caller adds the scalar's column to locate it. Parse once with
/// ``TemplateString/parse(_:)`` or ``Expr/parse(_:)``, then ``evaluate(in:)`` as often as needed.
public indirect enum Expr: Sendable, Hashable {
  /// A literal: string, int, double, `true`, `false`, `null`, or a duration (`90s` is `90`).
  case literal(Value, offset: Int)
  /// An array literal `[a, b]`; `offset` is that of `[`.
  case array([Expr], offset: Int)
  /// A root name: `vars`, `matrix`, `steps`, `tenant`, `client`, `credentials`, `env`, `scenario`.
  case root(String, offset: Int)
  /// `base.name`; `offset` is that of `name`.
  case member(Expr, String, offset: Int)
  /// `base[key]`; `offset` is that of `[`, and `length` runs through `]`.
  case index(Expr, Expr, offset: Int, length: Int)
  /// `name(arguments…)`; `offset` is that of `name`.
  case call(String, [Expr], offset: Int)
  /// `!operand` or `-operand`; `offset` is that of the operator.
  case unary(UnaryOperator, Expr, offset: Int)
  /// `lhs op rhs`; `offset` is that of the operator.
  case binary(BinaryOperator, Expr, Expr, offset: Int)
}

/// A prefix operator.
public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
  /// `!x`: true when `x` is falsy (false, null, 0, "", empty collections).
  case not = "!"
  /// `-x`: a number's negation.
  case negate = "-"
}

/// An infix operator, loosest binding first: `||`, `&&`, equality, comparison, additive.
public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
  case or = "||"
  case and = "&&"
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case add = "+"
  case subtract = "-"

  /// Binding strength: higher binds tighter.
  var precedence: Int {
    switch self {
    case .or: return 1
    case .and: return 2
    case .equal, .notEqual: return 3
    case .less, .lessOrEqual, .greater, .greaterOrEqual: return 4
    case .add, .subtract: return 5
    }
  }
}

extension Expr {
  /// The offset of the leftmost character of the expression.
  public var startOffset: Int {
    switch self {
    case .literal(_, let offset), .array(_, let offset), .root(_, let offset), .call(_, _, let offset),
      .unary(_, _, let offset):
      return offset
    case .member(let base, _, _), .index(let base, _, _, _), .binary(_, let base, _, _):
      return base.startOffset
    }
  }
}
