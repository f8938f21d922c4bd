import AuthFlowCore

extension Expr {
  /// Static checks, before anything runs: unknown root names and functions (with "did you mean"),
  /// wrong numbers of arguments, and each function's own checks of literal arguments (an invalid
  /// regular expression in `matches`). Every problem is reported, in source order.
  public func check(functions: FunctionRegistry, roots: Set<String>) -> [ExpressionError] {
    var errors: [ExpressionError] = []
    collectErrors(into: &errors, functions: functions, roots: roots)
    return errors
  }

  private func collectErrors(into errors: inout [ExpressionError], functions: FunctionRegistry, roots: Set<String>) {
    switch self {
    case .literal:
      break
    case .array(let items, _):
      for item in items { item.collectErrors(into: &errors, functions: functions, roots: roots) }
    case .root(let name, let offset):
      if !roots.contains(name) { errors.append(.unknownName(name, offset: offset, roots: roots)) }
    case .member(let base, _, _):
      base.collectErrors(into: &errors, functions: functions, roots: roots)
    case .index(let base, let key, _, _):
      base.collectErrors(into: &errors, functions: functions, roots: roots)
      key.collectErrors(into: &errors, functions: functions, roots: roots)
    case .call(let name, let arguments, let offset):
      if let function = functions.function(named: name) {
        let kind = type(of: function)
        if !kind.arity.contains(arguments.count) {
          errors.append(
            .wrongArity(name, arity: kind.arity, given: arguments.count, signature: kind.signature, offset: offset))
        } else {
          errors.append(contentsOf: kind.check(arguments: arguments))
        }
      } else {
        errors.append(.unknownFunction(name, offset: offset, hint: Suggestion.hint(for: name, in: functions.names)))
      }
      for argument in arguments { argument.collectErrors(into: &errors, functions: functions, roots: roots) }
    case .unary(_, let operand, _):
      operand.collectErrors(into: &errors, functions: functions, roots: roots)
    case .binary(.subtract, let lhs, .root(let name, let offset), _) where !roots.contains(name):
      // `steps.sign-up.x` parses as `steps.sign - up.x`: say how to read a key with a '-'.
      lhs.collectErrors(into: &errors, functions: functions, roots: roots)
      let hint = lhs.hyphenatedChainHint(appending: name)
      errors.append(.unknownName(name, offset: offset, roots: roots, hint: hint))
    case .binary(_, let lhs, let rhs, _):
      lhs.collectErrors(into: &errors, functions: functions, roots: roots)
      rhs.collectErrors(into: &errors, functions: functions, roots: roots)
    }
  }

  /// For `a.b - c`, the hint `… write a["b-c"]`; nil when `self` does not end in a member.
  private func hyphenatedChainHint(appending name: String) -> String? {
    guard case .member(let base, let last, _) = self else { return nil }
    return ExpressionError.hyphenatedKeyHint("\(base)[\"\(last)-\(name)\"]")
  }
}

extension TemplateString {
  /// The static checks of every expression in the template; see ``Expr/check(functions:roots:)``.
  public func check(functions: FunctionRegistry, roots: Set<String>) -> [ExpressionError] {
    expressions.flatMap { $0.check(functions: functions, roots: roots) }
  }
}
