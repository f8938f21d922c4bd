/// A literal member chain that starts at a root: `steps.login.refresh_token` is root `steps`,
/// path `["login", "refresh_token"]`. Index access with a literal key continues the chain
/// (`steps["sign-up"].status`); any other index or a call ends it.
public struct Reference: Sendable, Hashable, CustomStringConvertible {
  public var root: String
  public var path: [String]
  /// The span of the whole chain, from the root name to the end of its last member.
  public var offset: Int
  public var length: Int

  public init(root: String, path: [String], offset: Int, length: Int) {
    self.root = root
    self.path = path
    self.offset = offset
    self.length = length
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

  private func collectReferences(into found: inout [Reference]) {
    if let chain = referenceChain {
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
    case .call(_, let arguments, _):
      for argument in arguments { argument.collectReferences(into: &found) }
    case .unary(_, let operand, _):
      operand.collectReferences(into: &found)
    case .binary(_, let lhs, let rhs, _):
      lhs.collectReferences(into: &found)
      rhs.collectReferences(into: &found)
    }
  }

  /// The chain when `self` is a root followed only by members and literal indexes.
  private var referenceChain: Reference? {
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

extension TemplateString {
  /// The references of every expression in the template, in source order.
  public var references: [Reference] {
    expressions.flatMap(\.references)
  }
}
