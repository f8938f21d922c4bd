import Synchronization

/// Compiled regular expressions by pattern, shared by every evaluation, so that `matches` in a
/// retry loop or across a thousand scenarios compiles each pattern once.
enum RegexCache {
  private static let compiled = Mutex<[String: RegexPattern]>([:])
  /// Patterns beyond this many are compiled but not kept (a run that builds patterns dynamically).
  private static let limit = 512

  /// The compiled pattern; throws the compiler's error for an invalid pattern.
  static func pattern(_ pattern: String) throws(RegexSyntaxError) -> RegexPattern {
    if let cached = compiled.withLock({ $0[pattern] }) { return cached }
    let fresh = try RegexPattern(pattern)
    return compiled.withLock { cache in
      if let raced = cache[pattern] { return raced }
      if cache.count < limit { cache[pattern] = fresh }
      return fresh
    }
  }
}

extension RegexPattern {
  /// The compiled `pattern`, from the cache `matches()` shares.
  public static func cached(_ pattern: String) throws(RegexSyntaxError) -> RegexPattern {
    try RegexCache.pattern(pattern)
  }
}
