import AuthFlowYAML

extension YAMLNode {
  /// How an error message names what was found ("a mapping", "a list", "an integer").
  var foundDescription: String {
    switch self {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .scalar(let scalar):
      switch scalar.value {
      case .null: return "nothing"
      case .bool: return "a boolean"
      case .int: return "an integer"
      case .double: return "a number"
      default: return "a string"
      }
    }
  }

  /// The scalar, when this node is one.
  var scalar: YAMLScalar? {
    if case .scalar(let scalar) = self { return scalar }
    return nil
  }

  /// True for an empty plain scalar or `null`/`~`.
  var isNull: Bool {
    if case .scalar(let scalar) = self, case .null = scalar.value { return true }
    return false
  }

  /// How many columns to underline: the scalar's text on one line, else one.
  var underlineLength: Int {
    guard let scalar, !scalar.isBlock, !scalar.text.contains("\n") else { return 1 }
    return max(1, scalar.text.count + (scalar.isQuoted ? 2 : 0))
  }
}
