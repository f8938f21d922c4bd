import AuthFlowTestSupport
import Testing

@testable import AuthFlowCore

/// The secret registry's tables (``WordTable``) against the standard library's: the same members
/// and values after the same random inserts, zero and replaced keys included, and at most a fifth
/// of a word spare on average after growing by half.
@Suite struct WordTableTests {
  @Test func aSetOfHashesHoldsWhatASetHolds() {
    var generator = SplitMix64(seed: 7)
    var table = WordTable<WholeWord>()
    var reference: Set<UInt64> = []
    // Small keys collide in their first slots; large random ones spread.
    for round in 0..<50_000 {
      let key = round % 3 == 0 ? generator.next() % 64 : generator.next()
      table.insert(key)
      reference.insert(key)
      if round % 997 == 0 {
        #expect(table.count == reference.count)
      }
    }
    #expect(table.count == reference.count)
    for key in reference { #expect(table.contains(key)) }
    for _ in 0..<50_000 {
      let key = generator.next()
      #expect(table.contains(key) == reference.contains(key))
    }
    #expect(table.contains(0) == reference.contains(0))
  }

  @Test func zeroIsAMemberLikeAnyOther() {
    var table = WordTable<WholeWord>()
    #expect(!table.contains(0))
    table.insert(0)
    #expect(table.contains(0))
    #expect(table.count == 1)
    table.insert(0)
    #expect(table.count == 1)
  }

  @Test func aMapByTheHighHalfReplacesTheWordOfItsKey() {
    var generator = SplitMix64(seed: 11)
    var table = WordTable<HighHalf>()
    var reference: [UInt32: UInt32] = [:]
    for _ in 0..<40_000 {
      let key = UInt32(truncatingIfNeeded: generator.next() % 20_000)
      let value = UInt32(truncatingIfNeeded: generator.next()) | 1
      table.store(UInt64(key) << 32 | UInt64(value))
      reference[key] = value
    }
    #expect(table.count == reference.count)
    for (key, value) in reference {
      #expect(table.word(forKey: UInt64(key)).map { UInt32(truncatingIfNeeded: $0) } == value)
    }
    #expect(table.word(forKey: 20_000) == nil)
  }

  @Test func theTableIsAtMostFourFifthsFullAndAtLeastAHalf() {
    var table = WordTable<WholeWord>()
    for key in 1...100_000 as ClosedRange<UInt64> {
      table.insert(key &* 0x9E37_79B9_7F4A_7C15)
      #expect(table.count * 5 <= table.slots.count * 4)
    }
    #expect(table.count * 2 >= table.slots.count)
  }

  @Test func packedLengthsRoundTripAndNeverPackToTheSpilledMark() {
    #expect(SecretRegistry.PackedLengths.unpack(SecretRegistry.PackedLengths.pack([43])!) == [43])
    #expect(
      SecretRegistry.PackedLengths.unpack(SecretRegistry.PackedLengths.pack([0xFFFF, 0xFFFE])!) == [0xFFFF, 0xFFFE])
    #expect(SecretRegistry.PackedLengths.pack([0xFFFF, 0xFFFE]) != SecretRegistry.PackedLengths.spilled)
    #expect(SecretRegistry.PackedLengths.pack([3, 2, 1]) == nil)
    #expect(SecretRegistry.PackedLengths.pack([70_000]) == nil)
    #expect(SecretRegistry.PackedLengths.pack([]) == nil)
  }

  @Test func secretsSharingAPrefixInMoreLengthsThanAWordHoldsAreAllMasked() {
    let registry = SecretRegistry()
    let secrets = (0..<40).map { "eyJhbGciOiJSUzI1NiJ9." + String(repeating: "k", count: 10 + $0 * 3) }
    for secret in secrets { registry.register(secret) }
    for secret in secrets.shuffled() {
      #expect(registry.scrub("[\(secret)]") == "[***]")
    }
    #expect(registry.scrub("[eyJhbGciOiJSUzI1NiJ9.kk]") == "[eyJhbGciOiJSUzI1NiJ9.kk]")
  }
}
