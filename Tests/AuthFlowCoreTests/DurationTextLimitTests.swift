import AuthFlowCore
import Testing

/// Durations are checked against a limit before any conversion: the issue's crashing values read
/// as "too long", never trap.
@Suite struct DurationTextLimitTests {
  @Test(arguments: ["1e38", "2562047788015215h", "9223372036854775807h", "1e308", "1e300s", "25h", "86401"])
  func tooLongTexts(text: String) {
    guard case .tooLong = DurationText.read(text) else {
      Issue.record("expected '\(text)' to be too long")
      return
    }
    #expect(DurationText.parse(text) == nil)
  }

  @Test(arguments: [Value.double(1e300), .double(1e38), .int(Int.max), .string("1e308")])
  func tooLongValues(value: Value) {
    guard case .tooLong = DurationText.read(value) else {
      Issue.record("expected \(value) to be too long")
      return
    }
  }

  @Test(arguments: ["inf", "nan", "-1s", "", "s", "1e999"])
  func notDurations(text: String) {
    #expect(DurationText.read(text) == .invalid || DurationText.parse(text) == nil)
  }

  @Test func theLimitItselfIsAccepted() {
    #expect(DurationText.parse("24h") == .seconds(86_400))
    #expect(DurationText.parse("86400") == .seconds(86_400))
    #expect(DurationText.parse("25h", maximum: InputLimits.longestClockShift) == .seconds(90_000))
  }

  @Test func secondsAreChecked() {
    #expect(DurationText.duration(seconds: .infinity) == nil)
    #expect(DurationText.duration(seconds: 1e300) == nil)
    #expect(DurationText.duration(seconds: 2.5) == .milliseconds(2_500))
  }

  @Test func limitsAreDescribedAsWritten() {
    #expect(DurationText.describe(InputLimits.longestDuration) == "24h")
    #expect(DurationText.describe(InputLimits.longestClockShift) == "10000h")
  }

  @Test func nanosecondsSaturateInsteadOfTrapping() {
    #expect(Duration.seconds(Int64.max).saturatingNanoseconds == .max)
    #expect(Duration.seconds(9_223_372_036).saturatingNanoseconds == 9_223_372_036_000_000_000)
    #expect(Duration.seconds(9_223_372_037).saturatingNanoseconds == .max)
    #expect(Duration.seconds(-5).saturatingNanoseconds == 0)
    #expect(Duration.seconds(Int64.min).saturatingNanoseconds == 0)
    #expect(Duration.milliseconds(1500).saturatingNanoseconds == 1_500_000_000)
    #expect(Duration.nanoseconds(1).saturatingNanoseconds == 1)
  }
}
