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
    case .binary(let op, let lhs, let rhs, _):
      lhs.collectErrors(into: &errors, functions: functions, roots: roots)
      let first = errors.count
      rhs.collectErrors(into: &errors, functions: functions, roots: roots)
      // `steps.sign-up.status` parses as `steps.sign - up.status`: say how to read a key with '-'.
      if op == .subtract, case .root(let name, let offset)? = rhs.leftmostRoot, !roots.contains(name),
        let index = errors[first...].firstIndex(where: { $0.offset == offset }),
        let hint = lhs.hyphenatedChainHint(rhs)
      {
        errors[index].hint = hint
      }
    }
  }

  /// The root at the start of a member chain (`up` in `up.status`).
  private var leftmostRoot: Expr? {
    switch self {
    case .root: return self
    case .member(let base, _, _), .index(let base, _, _, _): return base.leftmostRoot
    default: return nil
    }
  }

  /// For `a.b - c.d`, the hint `… write a["b-c"].d`; nil when `self` does not end in a member.
  private func hyphenatedChainHint(_ rhs: Expr) -> String? {
    guard case .member(let base, let last, _) = self, case .root(let name, _)? = rhs.leftmostRoot else { return nil }
    let rest = String(rhs.description.dropFirst(name.count))
    return ExpressionError.hyphenatedKeyHint("\(base)[\"\(last)-\(name)\"]\(rest)")
  }
}

extension TemplateString {
  /// The static checks of every expression in the template; see ``Expr/check(functions:roots:)``.
  public func check(functions: FunctionRegistry, roots: Set<String>) -> [ExpressionError] {
    expressions.flatMap { $0.check(functions: functions, roots: roots) }
  }
}
