import Foundation
import Testing

@testable import AuthFlowMockTenant

@Suite("ISO 8601 timestamps")
struct TimestampTests {
  @Test("Matches ISO8601DateFormatter with fractional seconds, across eras, leap days and millisecond edges")
  func matchesFoundation() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var samples: [Double] = [
      0, 0.001, 0.999, 951_782_400, 951_868_799.999, 1_700_000_000.5, 4_102_444_800, -1, -86_400.25,
    ]
    var generator = SystemRandomNumberGenerator()
    // Whole milliseconds, as the mock's clock readings are formatted (sub-millisecond digits round).
    for _ in 0..<500 {
      samples.append(Double(Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)) / 1000)
    }
    for seconds in samples {
      #expect(
        UserClaims.isoMilliseconds(seconds) == formatter.string(from: Date(timeIntervalSince1970: seconds)),
        "\(seconds)")
    }
  }
}
