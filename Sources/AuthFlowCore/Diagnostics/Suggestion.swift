/// "Did you mean" suggestions for misspelt keys, action names and functions.
public enum Suggestion {
  /// The closest candidate to `word` by edit distance, if it is close enough to be a likely typo.
  public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let lowered = word.lowercased()
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(lowered, candidate.lowercased())
      if distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    guard let (candidate, distance) = best else { return nil }
    let limit = max(1, min(3, (word.count + 1) / 3))
    return distance <= limit ? candidate : nil
  }

  /// `did you mean 'X'?` or nil.
  public static func hint(for word: String, in candidates: some Sequence<String>) -> String? {
    closest(to: word, in: candidates).map { "did you mean '\($0)'?" }
  }

  /// Levenshtein distance, with a transposition counted as one edit.
  public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let left = Array(lhs)
    let right = Array(rhs)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var previousPrevious = [Int](repeating: 0, count: right.count + 1)
    var previous = Array(0...right.count)
    var current = [Int](repeating: 0, count: right.count + 1)
    for i in 1...left.count {
      current[0] = i
      for j in 1...right.count {
        let cost = left[i - 1] == right[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[right.count]
  }
}
