import Synchronization

/// Compiled regular expressions by pattern, shared by every evaluation, so that `matches` in a
/// retry loop or across a thousand scenarios compiles each pattern once.
enum RegexCache {
  private static let compiled = Mutex<[String: CompiledPattern]>([:])
  /// Patterns beyond this many are compiled but not kept (a run that builds patterns dynamically).
  private static let limit = 512

  /// The compiled pattern; throws the compiler's error for an invalid pattern.
  static func pattern(_ pattern: String) throws -> CompiledPattern {
    if let cached = compiled.withLock({ $0[pattern] }) { return cached }
    let fresh = try CompiledPattern(pattern)
    return compiled.withLock { cache in
      if let raced = cache[pattern] { return raced }
      if cache.count < limit { cache[pattern] = fresh }
      return fresh
    }
  }
}

/// One compiled pattern. Swift's `Regex` is not `Sendable`, so it lives inside its own mutex:
/// matches of the same pattern take turns, different patterns run in parallel.
final class CompiledPattern: Sendable {
  private let regex: Mutex<Regex<AnyRegexOutput>>

  init(_ pattern: String) throws {
    regex = Mutex(try Regex(pattern))
  }

  /// Whether the pattern matches somewhere in `text`.
  func matches(_ text: String) -> Bool {
    regex.withLock { regex in (try? regex.firstMatch(in: text)) != nil }
  }
}
