extension RegexMachine {
  /// One thread of the capturing simulation: where it is and the capture slots it has filled.
  private struct Thread {
    var pc: Int
    var slots: [Int]
  }

  /// What a capturing search found.
  enum CaptureOutcome {
    /// The leftmost match: its capture slots as scalar offsets (-1: the group took no part).
    case match([Int])
    case noMatch
    case cancelled
  }

  /// The leftmost match, choosing among matches there as Perl and RE2 do (the first alternative,
  /// greedy repetitions as long and lazy ones as short as they can be), with its groups' bounds.
  /// The Pike VM of RE2: threads in priority order, each carrying its slots, so the cost stays
  /// text length × program size × slots.
  func firstMatch(_ text: [Unicode.Scalar]) -> CaptureOutcome {
    let instructions = program.instructions
    var current: [Thread] = []
    var next: [Thread] = []
    var mark = [Int](repeating: -1, count: instructions.count)
    var generation = 0
    var found: [Int]? = nil
    var stack: [Thread] = []

    func add(_ thread: Thread, at position: Int, to list: inout [Thread], generation: Int) {
      stack.append(thread)
      while let thread = stack.popLast() {
        let pc = thread.pc
        guard mark[pc] != generation else { continue }
        mark[pc] = generation
        switch instructions[pc] {
        case .jump(let target):
          stack.append(Thread(pc: target, slots: thread.slots))
        case .split(let first, let second):
          stack.append(Thread(pc: second, slots: thread.slots))
          stack.append(Thread(pc: first, slots: thread.slots))
        case .assert(let assertion):
          if holds(assertion, at: position, in: text) { stack.append(Thread(pc: pc + 1, slots: thread.slots)) }
        case .save(let slot):
          var slots = thread.slots
          if slot < slots.count { slots[slot] = position }
          stack.append(Thread(pc: pc + 1, slots: slots))
        case .match, .character, .any, .set:
          list.append(thread)
        }
      }
    }

    for position in 0...text.count {
      if position % Self.cancellationInterval == 0, position > 0, Task.isCancelled { return .cancelled }
      // A new start at every position until a match is found: it has the lowest priority.
      if found == nil {
        var slots = [Int](repeating: -1, count: program.slotCount)
        slots[0] = position
        add(Thread(pc: 0, slots: slots), at: position, to: &current, generation: generation)
      }
      // Nothing left to extend once a match is found; before that, the next position starts anew
      // (a start thread can die at once, on `^` away from a line's start).
      if current.isEmpty {
        if found != nil { break }
        generation += 1
        continue
      }
      let nextGeneration = generation + 1
      threads: for thread in current {
        let consumes: Bool
        switch instructions[thread.pc] {
        case .match:
          var slots = thread.slots
          slots[1] = position
          found = slots
          // The threads after this one have lower priority: cut them.
          break threads
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
        if consumes {
          add(Thread(pc: thread.pc + 1, slots: thread.slots), at: position + 1, to: &next, generation: nextGeneration)
        }
      }
      swap(&current, &next)
      next.removeAll(keepingCapacity: true)
      generation = nextGeneration
    }
    return found.map(CaptureOutcome.match) ?? .noMatch
  }
}
