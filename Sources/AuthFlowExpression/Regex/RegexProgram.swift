/// A pattern compiled to a Thompson NFA: a list of instructions that `RegexMachine` simulates
/// all at once, so matching takes time linear in the text whatever the pattern.
struct RegexProgram: Sendable {
  /// The most instructions one pattern may compile to (counted repetitions are expanded).
  static let limit = 20_000

  enum Instruction: Sendable {
    /// Consumes one character equal to the scalar (case-folded when `foldCase`).
    case character(Unicode.Scalar, foldCase: Bool)
    /// Consumes any character but a newline (any at all when `dotAll`).
    case any(dotAll: Bool)
    /// Consumes one character of the set.
    case set(RegexCharSet)
    /// Continues at both.
    case split(Int, Int)
    case jump(Int)
    /// Continues only where the assertion holds.
    case assert(RegexAssertion)
    /// Records the position in capture slot n (2k: group k's start, 2k+1: its end), then continues.
    case save(Int)
    case match
  }

  private(set) var instructions: [Instruction] = []
  /// Capture slots a match fills: the whole match's start and end, then each group's.
  private(set) var slotCount = 2

  static func compile(_ node: RegexNode, captures: Int = 0) throws(RegexSyntaxError) -> RegexProgram {
    var program = RegexProgram()
    program.slotCount = 2 * (captures + 1)
    try program.emit(node)
    try program.append(.match)
    return program
  }

  private mutating func append(_ instruction: Instruction) throws(RegexSyntaxError) {
    guard instructions.count < Self.limit else { throw .tooLarge() }
    instructions.append(instruction)
  }

  private mutating func emit(_ node: RegexNode) throws(RegexSyntaxError) {
    switch node {
    case .empty:
      return
    case .literal(let scalar, let foldCase):
      try append(.character(scalar, foldCase: foldCase))
    case .any(let dotAll):
      try append(.any(dotAll: dotAll))
    case .set(let set):
      try append(.set(set))
    case .assertion(let assertion):
      try append(.assert(assertion))
    case .concat(let items):
      for item in items { try emit(item) }
    case .capture(let inner, let index):
      try append(.save(2 * index))
      try emit(inner)
      try append(.save(2 * index + 1))
    case .alternate(let branches):
      // split L1, next; L1: branch; jump end; next: split …
      var jumps: [Int] = []
      for (offset, branch) in branches.enumerated() {
        if offset < branches.count - 1 {
          let split = instructions.count
          try append(.split(split + 1, -1))
          try emit(branch)
          jumps.append(instructions.count)
          try append(.jump(-1))
          instructions[split] = .split(split + 1, instructions.count)
        } else {
          try emit(branch)
        }
      }
      for jump in jumps { instructions[jump] = .jump(instructions.count) }
    case .repeat(let inner, let min, let max, let lazy):
      // A split's first target is the preferred one: into the body when greedy, past it when lazy.
      func split(into body: Int, past end: Int) -> Instruction {
        lazy ? .split(end, body) : .split(body, end)
      }
      for _ in 0..<min { try emit(inner) }
      if let max {
        // Each optional copy: split into it or past all the rest.
        var splits: [Int] = []
        for _ in min..<max {
          splits.append(instructions.count)
          try append(.split(instructions.count + 1, -1))
          try emit(inner)
        }
        for position in splits { instructions[position] = split(into: position + 1, past: instructions.count) }
      } else {
        // L: split body, end; body; jump L
        let loop = instructions.count
        try append(.split(loop + 1, -1))
        try emit(inner)
        try append(.jump(loop))
        instructions[loop] = split(into: loop + 1, past: instructions.count)
      }
    }
  }
}
