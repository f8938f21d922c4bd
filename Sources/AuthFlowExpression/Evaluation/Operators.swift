import AuthFlowCore

/// The semantics of the comparison and arithmetic operators.
enum Operators {
  static func apply(_ op: BinaryOperator, _ lhs: Value, _ rhs: Value, offset: Int) throws(ExpressionError) -> Value {
    switch op {
    case .equal: return .bool(equal(lhs, rhs))
    case .notEqual: return .bool(!equal(lhs, rhs))
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      return .bool(try compare(op, lhs, rhs, offset: offset))
    case .add: return try add(lhs, rhs, offset: offset)
    case .subtract: return try subtract(lhs, rhs, offset: offset)
    case .and: return lhs.isTruthy ? rhs : lhs
    case .or: return lhs.isTruthy ? lhs : rhs
    }
  }

  /// Equality without type coercion: ints and doubles compare numerically; a JWT equals a string
  /// holding its compact text; secrets compare by what they hold; arrays and objects compare deeply.
  static func equal(_ lhs: Value, _ rhs: Value) -> Bool {
    switch (lhs.unwrapped, rhs.unwrapped) {
    case (.null, .null): return true
    case (.bool(let left), .bool(let right)): return left == right
    case (.int(let left), .int(let right)): return left == right
    case (.int, .double), (.double, .int), (.double, .double): return lhs.doubleValue == rhs.doubleValue
    case (.string(let left), .string(let right)): return left == right
    case (.jwt(let token), .string(let text)), (.string(let text), .jwt(let token)): return token.raw == text
    case (.jwt(let left), .jwt(let right)): return left.raw == right.raw
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
    case (.object(let left), .object(let right)):
      return left.count == right.count
        && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
    default: return false
    }
  }

  /// Ordering of two numbers (ints and doubles mixed) or two strings; anything else is an error.
  static func compare(_ op: BinaryOperator, _ lhs: Value, _ rhs: Value, offset: Int) throws(ExpressionError) -> Bool {
    let order: Int
    switch (lhs.unwrapped, rhs.unwrapped) {
    case (.int(let left), .int(let right)):
      order = left < right ? -1 : (left == right ? 0 : 1)
    case (.int, .double), (.double, .int), (.double, .double):
      guard let left = lhs.doubleValue, let right = rhs.doubleValue, !left.isNaN, !right.isNaN else { return false }
      order = left < right ? -1 : (left == right ? 0 : 1)
    case (.string(let left), .string(let right)):
      order = left < right ? -1 : (left == right ? 0 : 1)
    default:
      throw .cannotCompare(lhs, rhs, operator: op, offset: offset)
    }
    switch op {
    case .less: return order < 0
    case .lessOrEqual: return order <= 0
    case .greater: return order > 0
    default: return order >= 0
    }
  }

  /// Numbers add; a string (or JWT) and a string, number or bool concatenate; arrays concatenate.
  static func add(_ lhs: Value, _ rhs: Value, offset: Int) throws(ExpressionError) -> Value {
    let secret = lhs.containsSecret || rhs.containsSecret
    switch (lhs.unwrapped, rhs.unwrapped) {
    case (.int(let left), .int(let right)):
      let (sum, overflow) = left.addingReportingOverflow(right)
      if overflow { throw .integerOverflow("+", offset: offset) }
      return keepSecret(.int(sum), secret)
    case (.int, .double), (.double, .int), (.double, .double):
      return keepSecret(.double((lhs.doubleValue ?? 0) + (rhs.doubleValue ?? 0)), secret)
    case (.array(let left), .array(let right)):
      return .array(left + right)
    case (let left, let right) where left.isText && right.isConcatenable || left.isConcatenable && right.isText:
      var text = ""
      left.appendInterpolation(to: &text)
      right.appendInterpolation(to: &text)
      return keepSecret(.string(text), secret)
    default:
      throw .cannotApply("+", to: lhs, and: rhs, offset: offset)
    }
  }

  static func subtract(_ lhs: Value, _ rhs: Value, offset: Int) throws(ExpressionError) -> Value {
    let secret = lhs.containsSecret || rhs.containsSecret
    switch (lhs.unwrapped, rhs.unwrapped) {
    case (.int(let left), .int(let right)):
      let (difference, overflow) = left.subtractingReportingOverflow(right)
      if overflow { throw .integerOverflow("-", offset: offset) }
      return keepSecret(.int(difference), secret)
    case (.int, .double), (.double, .int), (.double, .double):
      return keepSecret(.double((lhs.doubleValue ?? 0) - (rhs.doubleValue ?? 0)), secret)
    default:
      throw .cannotApply("-", to: lhs, and: rhs, offset: offset)
    }
  }

  static func negate(_ operand: Value, offset: Int) throws(ExpressionError) -> Value {
    switch operand.unwrapped {
    case .int(let number):
      let (negated, overflow) = (0).subtractingReportingOverflow(number)
      if overflow { throw .integerOverflow("-", offset: offset) }
      return keepSecret(.int(negated), operand.isSecret)
    case .double(let number):
      return keepSecret(.double(-number), operand.isSecret)
    default:
      throw .cannotNegate(operand, offset: offset)
    }
  }

  private static func keepSecret(_ value: Value, _ secret: Bool) -> Value {
    secret ? value.asSecret : value
  }
}

extension Value {
  /// A string or a JWT (its compact text).
  fileprivate var isText: Bool {
    switch self {
    case .string, .jwt: return true
    default: return false
    }
  }

  /// What `+` appends to a string: strings, JWTs, numbers, booleans.
  fileprivate var isConcatenable: Bool {
    switch self {
    case .string, .jwt, .int, .double, .bool: return true
    default: return false
    }
  }
}
