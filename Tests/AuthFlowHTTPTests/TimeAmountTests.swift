import NIOCore
import Testing

@testable import AuthFlowHTTP

/// The client's timeouts from a `Duration`: saturating, never trapping.
@Suite struct TimeAmountTests {
  @Test func durationsBeyondNanosecondsSaturate() {
    #expect(TimeAmount(saturating: .seconds(Int64.max)).nanoseconds == .max)
    #expect(TimeAmount(saturating: .seconds(-5)).nanoseconds == 0)
    #expect(TimeAmount(saturating: .milliseconds(1500)).nanoseconds == 1_500_000_000)
  }
}
