import AuthFlowCore
import AuthFlowYAML

extension ParseContext {
  /// The keys of a tenant's `rate_limit:`.
  static let rateLimitKeys = ["requests_per_minute"]

  /// `rate_limit: { requests_per_minute: N }` of a tenant, N within `InputLimits.requestsPerMinute`.
  mutating func rateLimit(_ node: YAMLNode) -> Located<Int>? {
    guard let pairs = mapping(node, for: "rate_limit") else { return nil }
    let keys = knownPairs(pairs, allowed: Self.rateLimitKeys, in: "rate_limit")
    guard let value = keys["requests_per_minute"]?.value else {
      report(.missingRateLimitKey(at: node.location))
      return nil
    }
    guard case .int(let number)? = value.scalar?.value else {
      report(.wrongType(expected: "a whole number of requests", found: value, for: "rate_limit.requests_per_minute"))
      return nil
    }
    guard InputLimits.requestsPerMinute.contains(number) else {
      report(.requestsPerMinuteOutOfRange(number, at: value.location))
      return nil
    }
    return Located(number, at: value.location)
  }
}

extension Diagnostic {
  static func missingRateLimitKey(at location: SourceLocation) -> Diagnostic {
    .error(
      "'rate_limit' needs 'requests_per_minute'", at: location,
      hint:
        "write 'rate_limit: { requests_per_minute: 600 }', or remove 'rate_limit' to pace by the tenant's headers only")
  }

  static func requestsPerMinuteOutOfRange(_ number: Int, at location: SourceLocation) -> Diagnostic {
    let range = InputLimits.requestsPerMinute
    return .error(
      "'rate_limit.requests_per_minute' must be between \(range.lowerBound) and \(range.upperBound) (got \(number))",
      at: location, hint: "the tenant's documented limit, in requests per minute")
  }
}
