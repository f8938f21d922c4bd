/// A literal member chain that starts at a root: `steps.login.refresh_token` is root `steps`,
/// path `["login", "refresh_token"]`. Index access with a literal key continues the chain
/// (`steps["sign-up"].status`); any other index or a call ends it.
public struct Reference: Sendable, Hashable, CustomStringConvertible {
  public var root: String
  public var path: [String]
  /// The span of the whole chain, from the root name to the end of its last member.
  public var offset: Int
  public var length: Int
  /// Whether the expression is written to cope with the chain's absence: the chain is the left
  /// operand of `||` (`tenant.users.solo || tenant.users.alice`), the first argument of
  /// `default(…)`, or compared with `null` (`tenant.users.solo != null`). Its `null` is then meant.
  public var isAbsenceHandled: Bool

  public init(root: String, path: [String], offset: Int, length: Int, isAbsenceHandled: Bool = false) {
    self.root = root
    self.path = path
    self.offset = offset
    self.length = length
    self.isAbsenceHandled = isAbsenceHandled
  }

  /// `steps.login.refresh_token`.
  public var description: String { ([root] + path).joined(separator: ".") }
}

extension Expr {
  /// Every maximal literal member chain starting at a root, in source order. The scenario
  /// validator uses them to reject `steps.X` where X is not guaranteed to have run.
  public var references: [Reference] {
    var found: [Reference] = []
    collectReferences(into: &found)
    return found
  }

  private func collectReferences(into found: inout [Reference], absenceHandled: Bool = false) {
    if var chain = referenceChain {
      chain.isAbsenceHandled = absenceHandled
      found.append(chain)
      return
    }
    switch self {
    case .literal, .root:
      break
    case .array(let items, _):
      for item in items { item.collectReferences(into: &found) }
    case .member(let base, _, _):
      base.collectReferences(into: &found)
    case .index(let base, let key, _, _):
      base.collectReferences(into: &found)
      key.collectReferences(into: &found)
    case .call(let name, let arguments, _):
      for (position, argument) in arguments.enumerated() {
        argument.collectReferences(into: &found, absenceHandled: name == "default" && position == 0)
      }
    case .unary(_, let operand, _):
      operand.collectReferences(into: &found)
    case .binary(let operation, let lhs, let rhs, _):
      let comparedWithNull = (operation == .equal || operation == .notEqual) && (lhs.isNullLiteral || rhs.isNullLiteral)
      lhs.collectReferences(into: &found, absenceHandled: operation == .or || comparedWithNull)
      rhs.collectReferences(into: &found, absenceHandled: comparedWithNull)
    }
  }

  var isNullLiteral: Bool {
    if case .literal(.null, _) = self { return true }
    return false
  }

  /// The chain when `self` is a root followed only by members and literal indexes
  /// (`steps.login.refresh_token`, `steps["sign-up"].status`); nil for anything else.
  public var referenceChain: Reference? {
    switch self {
    case .root(let name, let offset):
      return Reference(root: name, path: [], offset: offset, length: name.unicodeScalars.count)
    case .member(let base, let name, let offset):
      guard var chain = base.referenceChain else { return nil }
      chain.path.append(name)
      chain.length = offset + name.unicodeScalars.count - chain.offset
      return chain
    case .index(let base, .literal(let key, _), let offset, let length):
      guard var chain = base.referenceChain else { return nil }
      switch key {
      case .string(let name): chain.path.append(name)
      case .int(let index): chain.path.append(String(index))
      default: return nil
      }
      chain.length = offset + length - chain.offset
      return chain
    default:
      return nil
    }
  }
}

extension Expr {
  /// Whether the root `name` appears anywhere in the expression: a walk without allocation, to
  /// skip the expressions a check of one root has nothing to look at.
  public func mentions(root name: String) -> Bool {
    switch self {
    case .literal: return false
    case .root(let root, _): return root == name
    case .array(let items, _): return items.contains { $0.mentions(root: name) }
    case .member(let base, _, _): return base.mentions(root: name)
    case .index(let base, let key, _, _): return base.mentions(root: name) || key.mentions(root: name)
    case .call(_, let arguments, _): return arguments.contains { $0.mentions(root: name) }
    case .unary(_, let operand, _): return operand.mentions(root: name)
    case .binary(_, let lhs, let rhs, _): return lhs.mentions(root: name) || rhs.mentions(root: name)
    }
  }
}

extension TemplateString {
  /// Whether any expression of the template mentions the root `name` (``Expr/mentions(root:)``).
  public func mentions(root name: String) -> Bool {
    switch self {
    case .whole(let expr, _): return expr.mentions(root: name)
    case .interpolated(let parts):
      return parts.contains { part in
        if case .expression(let expr, _) = part { return expr.mentions(root: name) }
        return false
      }
    }
  }

  /// The references of every expression in the template, in source order.
  public var references: [Reference] {
    expressions.flatMap(\.references)
  }
}
