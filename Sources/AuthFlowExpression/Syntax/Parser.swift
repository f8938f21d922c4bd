import AuthFlowCore

/// A recursive-descent parser over the lexer's tokens.
///
/// Precedence, loosest first: `||`, `&&`, `== !=`, `< <= > >=`, `+ -`, prefix `! -`, postfix
/// `.name [index] (arguments)`. Binary operators associate to the left.
struct Parser {
  /// Whether the expression sits inside `${{ … }}` (ends at `}}`) or is bare (ends at the end).
  enum Mode {
    case template(openOffset: Int)
    case bare
  }

  private var lexer: Lexer
  private var token: Token
  private let mode: Mode
  /// How deep the tree being built is at the current token: nested parentheses, lists, calls,
  /// prefix operators, and chains of binary operators and member accesses. Bounded by
  /// ``InputLimits/expressionDepth`` so that neither this parser nor the tree walks that follow
  /// (checker, evaluator) can exhaust the stack.
  private var depth = 0
  /// Where the expression starts, for the length limit.
  private let start: Int

  init(cursor: SourceCursor, mode: Mode) throws(ExpressionError) {
    self.lexer = Lexer(cursor: cursor)
    self.mode = mode
    switch mode {
    case .template(let open): self.start = open
    case .bare: self.start = cursor.scalar
    }
    self.token = try lexer.next()
  }

  /// Goes one level deeper, or throws when that is past the limit.
  private mutating func descend() throws(ExpressionError) {
    depth += 1
    if depth > InputLimits.expressionDepth { throw .tooDeep(offset: token.offset) }
  }

  /// Parses one expression and its terminator (`}}` or the end of the text). Returns the
  /// expression and the cursor just after the terminator.
  mutating func parseComplete() throws(ExpressionError) -> (Expr, end: SourceCursor) {
    if case .template(let open) = mode, token.kind == .close {
      throw .emptyExpression(offset: open, length: token.offset + 2 - open)
    }
    if case .bare = mode, token.kind == .end {
      throw .unexpected("end of text", expected: "an expression", offset: token.offset, length: 1)
    }
    let expr = try parseBinary(minimumPrecedence: 1)
    if token.offset - start > InputLimits.expressionLength {
      throw .tooLong(offset: start, length: token.offset - start)
    }
    switch (mode, token.kind) {
    case (.template, .close), (.bare, .end):
      return (expr, lexer.cursor)
    case (.template, _):
      throw unexpected(expected: "an operator or '}}'")
    case (.bare, _):
      throw unexpected(expected: "an operator or the end of the expression")
    }
  }

  private mutating func advance() throws(ExpressionError) {
    token = try lexer.next()
    if token.offset - start > InputLimits.expressionLength {
      throw .tooLong(offset: start, length: token.offset - start)
    }
  }

  /// The error for the current token; inside a template, reaching the end means `}}` is missing.
  private func unexpected(expected: String) -> ExpressionError {
    switch (mode, token.kind) {
    case (.template(let open), .end): return .neverClosed(offset: open)
    case (.bare, .end):
      return .unexpected("end of text", expected: expected, offset: token.offset, length: 1)
    default:
      return .unexpected(describe(token), expected: expected, offset: token.offset, length: token.length)
    }
  }

  private func describe(_ token: Token) -> String {
    switch token.kind {
    case .identifier(let name): return "'\(name)'"
    case .number: return "number"
    case .string: return "string literal"
    case .symbol(let symbol): return "'\(symbol.rawValue)'"
    case .close: return "'}}'"
    case .end: return "end of text"
    }
  }

  private mutating func expect(_ symbol: Token.Symbol) throws(ExpressionError) -> Token {
    guard token.isSymbol(symbol) else { throw unexpected(expected: "'\(symbol.rawValue)'") }
    let matched = token
    try advance()
    return matched
  }

  // MARK: Operators

  private mutating func parseBinary(minimumPrecedence: Int) throws(ExpressionError) -> Expr {
    let entry = depth
    defer { depth = entry }
    var lhs = try parseUnary()
    while case .symbol(let symbol) = token.kind, let op = symbol.binaryOperator, op.precedence >= minimumPrecedence {
      let offset = token.offset
      try descend()
      try advance()
      let rhs = try parseBinary(minimumPrecedence: op.precedence + 1)
      lhs = .binary(op, lhs, rhs, offset: offset)
    }
    return lhs
  }

  private mutating func parseUnary() throws(ExpressionError) -> Expr {
    let entry = depth
    defer { depth = entry }
    try descend()
    let offset = token.offset
    if token.isSymbol(.bang) {
      try advance()
      return .unary(.not, try parseUnary(), offset: offset)
    }
    if token.isSymbol(.minus) {
      try advance()
      let operand = try parseUnary()
      // Fold `-5` into a literal so that it reads as a number everywhere (examples, references).
      switch operand {
      case .literal(.int(let number), _): return .literal(.int(-number), offset: offset)
      case .literal(.double(let number), _): return .literal(.double(-number), offset: offset)
      default: return .unary(.negate, operand, offset: offset)
      }
    }
    return try parsePostfix(try parsePrimary())
  }

  private mutating func parsePostfix(_ base: Expr) throws(ExpressionError) -> Expr {
    let entry = depth
    defer { depth = entry }
    var expr = base
    while true {
      if token.isSymbol(.dot) || token.isSymbol(.leftBracket) { try descend() }
      if token.isSymbol(.dot) {
        try advance()
        switch token.kind {
        case .identifier(let name):
          expr = .member(expr, name, offset: token.offset)
        case .number(.int(let index)) where index >= 0:
          expr = .member(expr, String(index), offset: token.offset)
        default:
          throw unexpected(expected: "a member name after '.'")
        }
        try advance()
      } else if token.isSymbol(.leftBracket) {
        let open = token.offset
        try advance()
        let key = try parseBinary(minimumPrecedence: 1)
        let close = try expect(.rightBracket)
        expr = .index(expr, key, offset: open, length: close.offset + 1 - open)
      } else if token.isSymbol(.leftParen) {
        throw .notCallable(offset: token.offset)
      } else {
        return expr
      }
    }
  }

  // MARK: Primaries

  private mutating func parsePrimary() throws(ExpressionError) -> Expr {
    let current = token
    switch current.kind {
    case .number(let value):
      try advance()
      return .literal(value, offset: current.offset)
    case .string(let text):
      try advance()
      return .literal(.string(text), offset: current.offset)
    case .identifier(let name):
      try advance()
      switch name {
      case "true": return .literal(.bool(true), offset: current.offset)
      case "false": return .literal(.bool(false), offset: current.offset)
      case "null": return .literal(.null, offset: current.offset)
      default: break
      }
      if token.isSymbol(.leftParen) {
        try advance()
        let arguments = try parseList(closing: .rightParen)
        return .call(name, arguments, offset: current.offset)
      }
      return .root(name, offset: current.offset)
    case .symbol(.leftParen):
      try advance()
      let inner = try parseBinary(minimumPrecedence: 1)
      _ = try expect(.rightParen)
      return inner
    case .symbol(.leftBracket):
      try advance()
      return .array(try parseList(closing: .rightBracket), offset: current.offset)
    default:
      throw unexpected(expected: "an expression")
    }
  }

  /// `a, b, c` up to and including `closing`; the opening token is already consumed.
  private mutating func parseList(closing: Token.Symbol) throws(ExpressionError) -> [Expr] {
    var items: [Expr] = []
    if token.isSymbol(closing) {
      try advance()
      return items
    }
    while true {
      items.append(try parseBinary(minimumPrecedence: 1))
      if token.isSymbol(.comma) {
        try advance()
        continue
      }
      guard token.isSymbol(closing) else { throw unexpected(expected: "',' or '\(closing.rawValue)'") }
      try advance()
      return items
    }
  }
}
