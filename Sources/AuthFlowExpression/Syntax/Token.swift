import AuthFlowCore

/// A token of the expression language, located in the enclosing string.
struct Token: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    case identifier(String)
    /// An int, double or duration (already in seconds).
    case number(Value)
    case string(String)
    case symbol(Symbol)
    /// `}}`, which ends an expression inside a template.
    case close
    /// The end of the text.
    case end
  }

  /// Punctuation and operators.
  enum Symbol: String, Sendable, Equatable {
    case leftParen = "("
    case rightParen = ")"
    case leftBracket = "["
    case rightBracket = "]"
    case dot = "."
    case comma = ","
    case bang = "!"
    case plus = "+"
    case minus = "-"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case and = "&&"
    case or = "||"

    var binaryOperator: BinaryOperator? {
      switch self {
      case .plus: return .add
      case .minus: return .subtract
      case .less: return .less
      case .lessOrEqual: return .lessOrEqual
      case .greater: return .greater
      case .greaterOrEqual: return .greaterOrEqual
      case .equal: return .equal
      case .notEqual: return .notEqual
      case .and: return .and
      case .or: return .or
      default: return nil
      }
    }
  }

  var kind: Kind
  var offset: Int
  var length: Int

  func isSymbol(_ symbol: Symbol) -> Bool { kind == .symbol(symbol) }
}
