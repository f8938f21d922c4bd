public import AuthFlowCore

/// A value with the place in the source it came from.
public struct Located<Wrapped> {
  public var value: Wrapped
  public var location: SourceLocation

  public init(_ value: Wrapped, at location: SourceLocation) {
    self.value = value
    self.location = location
  }
}

extension Located: Sendable where Wrapped: Sendable {}
extension Located: Equatable where Wrapped: Equatable {}
extension Located: Hashable where Wrapped: Hashable {}
