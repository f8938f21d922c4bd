public import Foundation
import Synchronization

/// The mock's clock: a base clock plus an offset that `/__mock/clock` advances. Every expiry (codes,
/// sessions, tokens) reads it.
public final class VirtualClock: Sendable {
  private let base: @Sendable () -> Date
  private let offset = Mutex<Double>(0)

  /// `base` defaults to the system clock; tests inject a fixed one.
  public init(base: @escaping @Sendable () -> Date = { Date() }) {
    self.base = base
  }

  /// The current virtual time.
  public func now() -> Date { base().addingTimeInterval(offset.withLock { $0 }) }

  /// Seconds since 1970, virtual.
  public var seconds: Double { now().timeIntervalSince1970 }

  /// How far the virtual clock is from the base clock, in seconds (what `advance` added up to).
  public var offsetSeconds: Double { offset.withLock { $0 } }

  /// Whole seconds since 1970, virtual (for `iat`, `exp`).
  public var epoch: Int { Int(seconds.rounded(.down)) }

  /// Moves virtual time forward (or back, with a negative amount).
  public func advance(by seconds: Double) {
    offset.withLock { $0 += seconds }
  }

  /// Moves virtual time by `seconds` unless that takes the offset past `limit` either way (or
  /// `seconds` is not finite); true when it moved.
  public func advance(by seconds: Double, keepingOffsetWithin limit: Double) -> Bool {
    offset.withLock { offset in
      guard seconds.isFinite, abs(offset + seconds) <= limit else { return false }
      offset += seconds
      return true
    }
  }

  /// Back to the base clock.
  public func reset() {
    offset.withLock { $0 = 0 }
  }
}
