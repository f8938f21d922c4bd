extension Expr: CustomStringConvertible {
  /// The expression written back fully parenthesized, e.g. `(a || (b && c))`: shows how it parsed.
  public var description: String {
    switch self {
    case .literal(let value, _):
      if case .string(let text) = value {
        var quoted = ""
        quoted.reserveCapacity(text.utf8.count + 2)
        quoted += "'"
        for character in text {
          switch character {
          case "'": quoted += "\\'"
          case "\\": quoted += "\\\\"
          case "\n": quoted += "\\n"
          case "\t": quoted += "\\t"
          default: quoted.append(character)
          }
        }
        return quoted + "'"
      }
      return value.jsonText()
    case .array(let items, _):
      return "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .root(let name, _):
      return name
    case .member(let base, let name, _):
      return "\(base).\(name)"
    case .index(let base, let key, _, _):
      return "\(base)[\(key)]"
    case .call(let name, let arguments, _):
      return name + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
    case .unary(let op, let operand, _):
      return "(\(op.rawValue)\(operand))"
    case .binary(let op, let lhs, let rhs, _):
      return "(\(lhs) \(op.rawValue) \(rhs))"
    }
  }
}
