public import AuthFlowCore

extension Expr {
  /// Evaluates the expression.
  ///
  /// Reading data is forgiving, as in GitHub Actions: a missing key, an index out of range, or a
  /// member of `null` or of a scalar is `null`, so chains such as `steps.x.body.user.id` never fail
  /// half-way and `steps.login.refresh_token == null` tests for absence. Operators are strict:
  /// `<` on a string and an int, or `+` on `null`, is an error that names the types.
  ///
  /// Secrets: reading a member of a secret gives a secret; a string built from a secret (`+`,
  /// interpolation, `lower`, …) is a secret; arithmetic on a secret number stays secret. Booleans
  /// and lengths computed from secrets (`==`, `<`, `contains`, `len`, `matches`) are plain.
  public func evaluate(in context: EvaluationContext) throws(ExpressionError) -> Value {
    switch self {
    case .literal(let value, _):
      return value
    case .array(let items, _):
      var values: [Value] = []
      values.reserveCapacity(items.count)
      for item in items { values.append(try item.evaluate(in: context)) }
      return .array(values)
    case .root(let name, let offset):
      guard let value = context.roots[name] else {
        throw .unknownName(name, offset: offset, roots: context.roots.keys)
      }
      return value
    case .member(let base, let name, _):
      return try base.evaluate(in: context).member(name) ?? .null
    case .index(let base, let key, let offset, let length):
      let container = try base.evaluate(in: context)
      return try container.subscripted(by: try key.evaluate(in: context), offset: offset, length: length)
    case .call(let name, let arguments, let offset):
      return try Self.call(name, arguments, offset: offset, in: context)
    case .unary(.not, let operand, _):
      return .bool(!(try operand.evaluate(in: context).isTruthy))
    case .unary(.negate, let operand, let offset):
      return try Operators.negate(try operand.evaluate(in: context), offset: offset)
    case .binary(.and, let lhs, let rhs, _):
      let left = try lhs.evaluate(in: context)
      return left.isTruthy ? try rhs.evaluate(in: context) : left
    case .binary(.or, let lhs, let rhs, _):
      let left = try lhs.evaluate(in: context)
      return left.isTruthy ? left : try rhs.evaluate(in: context)
    case .binary(let op, let lhs, let rhs, let offset):
      let left = try lhs.evaluate(in: context)
      let right = try rhs.evaluate(in: context)
      return try Operators.apply(op, left, right, offset: offset)
    }
  }

  private static func call(
    _ name: String, _ arguments: [Expr], offset: Int, in context: EvaluationContext
  ) throws(ExpressionError) -> Value {
    guard let function = context.functions.function(named: name) else {
      throw .unknownFunction(name, offset: offset, hint: Suggestion.hint(for: name, in: context.functions.names))
    }
    let kind = type(of: function)
    guard kind.arity.contains(arguments.count) else {
      throw .wrongArity(name, arity: kind.arity, given: arguments.count, signature: kind.signature, offset: offset)
    }
    var values: [Value] = []
    values.reserveCapacity(arguments.count)
    for argument in arguments { values.append(try argument.evaluate(in: context)) }
    do throws(ExpressionError) {
      return try function.call(values, context: context)
    } catch {
      throw error.located(at: offset, length: name.unicodeScalars.count)
    }
  }
}

extension Value {
  /// `container[key]`: an int into an array (negative counts from the end), a string into an
  /// object; anything missing is `null`.
  fileprivate func subscripted(by key: Value, offset: Int, length: Int) throws(ExpressionError) -> Value {
    switch key.unwrapped {
    case .int, .string:
      return index(key) ?? .null
    case .double(let number) where number.rounded() == number && abs(number) < 9e15:
      return index(.int(Int(number))) ?? .null
    case .null:
      return .null
    default:
      throw .invalidIndex(key, offset: offset, length: length)
    }
  }
}
