extension Value {
  /// Equality as `expect` means it: secrets compare by their text, a JWT equals its raw string,
  /// 3 equals 3.0, and objects and arrays compare member by member.
  public func matches(_ other: Value) -> Bool {
    switch (unwrapped, other.unwrapped) {
    case (.jwt(let left), .jwt(let right)): return left.raw == right.raw
    case (.jwt(let token), .string(let text)), (.string(let text), .jwt(let token)): return token.raw == text
    case (.int(let left), .double(let right)): return Double(left) == right
    case (.double(let left), .int(let right)): return left == Double(right)
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { $0.matches($1) }
    case (.object(let left), .object(let right)):
      return left.count == right.count
        && left.allSatisfy { key, value in right[key].map { value.matches($0) } ?? false }
    case (let left, let right): return left == right
    }
  }

  /// Ordering for `gt`/`lt`: numbers numerically, strings lexicographically; nil otherwise.
  public func compare(to other: Value) -> Int? {
    if let left = doubleValue, let right = other.doubleValue {
      return left < right ? -1 : (left > right ? 1 : 0)
    }
    if case .string(let left) = unwrapped, case .string(let right) = other.unwrapped {
      return left < right ? -1 : (left > right ? 1 : 0)
    }
    return nil
  }
}
