import AuthFlowCore

extension Expr {
  /// Whether evaluating the expression may reach an inequality — `a != b`, or `a == b` under an
  /// odd number of `!` — through `&&`, `||` and `!`, neither side the literal `null`. Decided from
  /// the syntax alone, so a caller can skip ``inequalityAgainstNothing(in:)`` (and building a
  /// context) for the conditions that have none.
  public var mayCompareAgainstNothing: Bool {
    hasInequality(negated: false)
  }

  private func hasInequality(negated: Bool) -> Bool {
    switch self {
    case .unary(.not, let operand, _):
      return operand.hasInequality(negated: !negated)
    case .binary(.and, let lhs, let rhs, _), .binary(.or, let lhs, let rhs, _):
      return lhs.hasInequality(negated: negated) || rhs.hasInequality(negated: negated)
    case .binary(let op, let lhs, let rhs, _):
      return Self.isInequality(op, negated: negated) && !lhs.isNullLiteral && !rhs.isNullLiteral
    default:
      return false
    }
  }

  private static func isInequality(_ op: BinaryOperator, negated: Bool) -> Bool {
    op == (negated ? .equal : .notEqual)
  }

  /// The offset of the first inequality the evaluation reaches with a side that read nothing
  /// (`null`, not the literal): `a != b` with `a` missing holds whatever `b` is, so a condition
  /// that rests on it checks nothing. The walk evaluates as ``evaluate(in:)`` does, short-circuits
  /// included — `a != null && a != b` with `a` missing never reaches `a != b` — and follows `&&`,
  /// `||` and `!` (by De Morgan, `!(a == b)` is an inequality); an inequality inside a function's
  /// arguments or an index is not looked at. Nil when there is none, or when evaluation fails
  /// (the caller's own evaluation reports that).
  public func inequalityAgainstNothing(in context: EvaluationContext) -> Int? {
    var found: Int?
    _ = try? vacuityWalk(negated: false, in: context, found: &found)
    return found
  }

  private func vacuityWalk(
    negated: Bool, in context: EvaluationContext, found: inout Int?
  ) throws(ExpressionError)
    -> Value
  {
    switch self {
    case .unary(.not, let operand, _):
      return .bool(!(try operand.vacuityWalk(negated: !negated, in: context, found: &found).isTruthy))
    case .binary(.and, let lhs, let rhs, _):
      let left = try lhs.vacuityWalk(negated: negated, in: context, found: &found)
      return left.isTruthy ? try rhs.vacuityWalk(negated: negated, in: context, found: &found) : left
    case .binary(.or, let lhs, let rhs, _):
      let left = try lhs.vacuityWalk(negated: negated, in: context, found: &found)
      return left.isTruthy ? left : try rhs.vacuityWalk(negated: negated, in: context, found: &found)
    case .binary(let op, let lhs, let rhs, let offset) where Self.isInequality(op, negated: negated):
      let left = try lhs.evaluate(in: context)
      let right = try rhs.evaluate(in: context)
      if found == nil, !lhs.isNullLiteral, !rhs.isNullLiteral, left.isNull || right.isNull {
        found = offset
      }
      return try Operators.apply(op, left, right, offset: offset)
    default:
      return try evaluate(in: context)
    }
  }
}

extension Expr {
  /// For a condition that came out false — an `if:` that would skip its step, and its checks with
  /// it — the first member chain its evaluation reached where the chain decided it and read nothing
  /// (a missing value, `null`): a side of `==` or `!=` whose other side is not the literal `null`,
  /// or the chain itself taken as true or false (the whole condition, an operand of `&&` or `!`).
  /// `steps.disc.body.isuser == 'x'` (a misspelt `issuer`) is false whatever the tenant answered.
  ///
  /// A chain written to cope with absence is not one: compared with `null`, the left operand of
  /// `||`, inside `default(…)` (any call's argument is the function's to judge); so is a function's
  /// own `null` (`url_query(u, 'error') == 'access_denied'`). Only the chains `counts` accepts
  /// count (the caller's choice: where a missing value is a typo rather than a setting left off).
  /// The walk evaluates as ``evaluate(in:)`` does, short-circuits included. Nil when there is none,
  /// or when evaluation fails (the caller's own evaluation reports that).
  public func chainDecidingFalse(
    in context: EvaluationContext, counting counts: (Reference) -> Bool
  ) -> Reference? {
    withoutActuallyEscaping(counts) { counts in
      var walk = DecisionWalk(context: context, counts: counts)
      _ = try? walk.value(of: self, absenceHandled: false)
      return walk.found
    }
  }
}

/// The walk of ``Expr/chainDecidingFalse(in:counting:)``.
private struct DecisionWalk {
  let context: EvaluationContext
  let counts: (Reference) -> Bool
  var found: Reference?

  mutating func value(of expression: Expr, absenceHandled: Bool) throws(ExpressionError) -> Value {
    switch expression {
    case .unary(.not, let operand, _):
      return .bool(!(try value(of: operand, absenceHandled: false).isTruthy))
    case .binary(.and, let lhs, let rhs, _):
      let left = try value(of: lhs, absenceHandled: false)
      return left.isTruthy ? try value(of: rhs, absenceHandled: false) : left
    case .binary(.or, let lhs, let rhs, _):
      let left = try value(of: lhs, absenceHandled: true)
      return left.isTruthy ? left : try value(of: rhs, absenceHandled: false)
    case .binary(let op, let lhs, let rhs, let offset) where op == .equal || op == .notEqual:
      let left = try lhs.evaluate(in: context)
      let right = try rhs.evaluate(in: context)
      if !lhs.isNullLiteral, !rhs.isNullLiteral {
        if left.isNull { note(lhs) }
        if right.isNull { note(rhs) }
      }
      return try Operators.apply(op, left, right, offset: offset)
    default:
      let result = try expression.evaluate(in: context)
      if !absenceHandled, result.isNull { note(expression) }
      return result
    }
  }

  /// Keeps the first chain that counts and read nothing.
  private mutating func note(_ expression: Expr) {
    guard found == nil, let chain = expression.referenceChain, counts(chain) else { return }
    found = chain
  }
}
