/// Simulates a `RegexProgram` over a text: every thread of the NFA advances one character at a
/// time in lockstep (Thompson's construction, as RE2 and Go's regexp do), so a search costs at most
/// text length × program size steps — never the exponential backtracking of `^(a+)+$`.
///
/// Long searches look at `Task.isCancelled` every few thousand characters, so a step timeout or
/// Ctrl-C stops them too.
struct RegexMachine {
  /// How many characters pass between cancellation checks.
  static let cancellationInterval = 4096

  let program: RegexProgram

  /// Whether the program matches somewhere in `text`; nil when the task was cancelled first.
  func search(_ text: [Unicode.Scalar]) -> Bool? {
    let instructions = program.instructions
    let count = instructions.count
    var current: [Int] = []
    var next: [Int] = []
    current.reserveCapacity(count)
    next.reserveCapacity(count)
    // `mark[pc] == generation` when pc is already on the list being built.
    var mark = [Int](repeating: -1, count: count)
    var generation = 0
    var stack: [Int] = []

    func add(_ pc: Int, at position: Int, to list: inout [Int], generation: Int) {
      stack.append(pc)
      while let pc = stack.popLast() {
        guard mark[pc] != generation else { continue }
        mark[pc] = generation
        switch instructions[pc] {
        case .jump(let target):
          stack.append(target)
        case .split(let first, let second):
          stack.append(second)
          stack.append(first)
        case .assert(let assertion):
          if holds(assertion, at: position, in: text) { stack.append(pc + 1) }
        case .save:
          stack.append(pc + 1)
        case .match, .character, .any, .set:
          list.append(pc)
        }
      }
    }

    for position in 0...text.count {
      if position % Self.cancellationInterval == 0, position > 0, Task.isCancelled { return nil }
      // A new thread at every position: the search is unanchored (`^` anchors it).
      add(0, at: position, to: &current, generation: generation)
      let nextGeneration = generation + 1
      for pc in current {
        let consumes: Bool
        switch instructions[pc] {
        case .match:
          return true
        case .character(let scalar, let foldCase):
          consumes =
            position < text.count
            && (text[position] == scalar || (foldCase && RegexCase.equal(scalar, text[position])))
        case .any(let dotAll):
          consumes = position < text.count && (dotAll || text[position] != "\n")
        case .set(let set):
          consumes = position < text.count && set.contains(text[position])
        default:
          consumes = false
        }
        if consumes { add(pc + 1, at: position + 1, to: &next, generation: nextGeneration) }
      }
      swap(&current, &next)
      next.removeAll(keepingCapacity: true)
      generation = nextGeneration
    }
    return false
  }

  func holds(_ assertion: RegexAssertion, at position: Int, in text: [Unicode.Scalar]) -> Bool {
    switch assertion {
    case .startOfText: return position == 0
    case .endOfText: return position == text.count
    case .startOfLine: return position == 0 || text[position - 1] == "\n"
    case .endOfLine: return position == text.count || text[position] == "\n"
    case .wordBoundary, .notWordBoundary:
      let before = position > 0 && RegexCharSet.Named.word.contains(text[position - 1].value)
      let after = position < text.count && RegexCharSet.Named.word.contains(text[position].value)
      return (before != after) == (assertion == .wordBoundary)
    }
  }
}
