import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// `--shard K/N`: every scenario instance is in exactly one shard, the assignment is the same on
/// every call, in every order and beside any other files, and a K outside 1…N is refused.
@Suite struct ShardTests {
  /// 40 scenarios in files of two folders.
  static func instances() throws -> [ScenarioInstance] {
    try (1...40).flatMap { number in
      try ScenarioHarness.parse(
        "scenario: s\(number)\nsteps:\n  - wait: 1ms\n",
        file: "scenarios/\(number % 2 == 0 ? "a" : "b")/s\(number).yaml"
      ).instances
    }
  }

  private func names(_ instances: [ScenarioInstance]) -> Set<String> {
    Set(instances.map { "\($0.scenario.file)#\($0.name)" })
  }

  @Test func kOfNParses() throws {
    let shard = try #require(Shard("2/4"))
    #expect(shard.index == 2 && shard.count == 4)
    #expect(shard.description == "2/4")
    #expect(Shard("1/1") == Shard(index: 1, count: 1))
  }

  @Test(arguments: ["0/3", "4/3", "-1/3", "1/0", "0/0", "3", "a/b", "1/2/3", "", "/3", "2/"])
  func aKOutsideOneToNIsRefused(_ text: String) {
    #expect(Shard(text) == nil)
  }

  @Test func theIndexInitializerRefusesTheSame() {
    #expect(Shard(index: 0, count: 3) == nil)
    #expect(Shard(index: 4, count: 3) == nil)
    #expect(Shard(index: 1, count: 0) == nil)
    #expect(Shard(index: 3, count: 3) != nil)
  }

  @Test(arguments: 1...7) func everyInstanceIsInExactlyOneShard(_ count: Int) throws {
    let instances = try Self.instances()
    #expect(instances.count == 40)
    let shards = (1...count).compactMap { Shard(index: $0, count: count) }
    #expect(shards.count == count)
    for instance in instances {
      let holders = shards.filter { $0.contains(instance) }
      #expect(holders.count == 1, "\(instance.scenario.file) is in shards \(holders)")
    }
    let union = shards.map { names(Selection(shard: $0).apply(to: instances)) }.reduce(Set()) { $0.union($1) }
    #expect(union == names(instances))
  }

  @Test func theAssignmentDoesNotDependOnOrderOrOtherFiles() throws {
    let instances = try Self.instances()
    for index in 1...4 {
      let selection = Selection(shard: Shard(index: index, count: 4))
      let all = names(selection.apply(to: instances))
      #expect(names(selection.apply(to: instances.reversed())) == all)
      let some = Array(instances.prefix(15))
      #expect(names(selection.apply(to: some)) == all.intersection(names(some)))
      #expect(names(selection.apply(to: instances)) == all, "the same on a second call")
    }
  }

  /// Every shard gets its share, whatever the names look like: files and scenario names that
  /// repeat the same number (as generated suites do) once left every other shard of an even N
  /// empty, so half of a CI matrix failed with "the selection runs no scenario".
  @Test(arguments: [2, 3, 4, 6, 8, 10, 16])
  func everyShardGetsItsShare(_ count: Int) {
    let patterns: [(Int) -> (file: String, name: String)] = [
      { ("suite/scenario-\(String(format: "%05d", $0)).yaml", "bench scenario \($0)") },
      { ("scenarios/s\($0).yaml", "s\($0)") },
      { ("scenarios/login.yaml", "login [user=\($0)]") },
    ]
    for pattern in patterns {
      let total = 2_000
      var sizes = [Int](repeating: 0, count: count)
      for number in 0..<total {
        let (file, name) = pattern(number)
        let holders = (1...count).filter { Shard(index: $0, count: count)!.contains(file: file, name: name) }
        #expect(holders.count == 1)
        if let holder = holders.first { sizes[holder - 1] += 1 }
      }
      let share = Double(total) / Double(count)
      // A fair split of 2,000 stays well within ±35 % of its share (about 7 standard deviations
      // at N = 16); the old hash gave 0 to half the shards.
      #expect(
        sizes.allSatisfy { abs(Double($0) - share) < share * 0.35 },
        "\(pattern(7).file): shard sizes \(sizes) for a share of \(share)")
    }
  }

  /// Pinned: a machine (or a later version) that put these files in other shards would split a
  /// CI run's shards differently from the others.
  @Test func theAssignmentIsPinned() throws {
    let instances = try Self.instances()
    let shards = (1...4).map { index in
      Selection(shard: Shard(index: index, count: 4)).apply(to: instances).map(\.name)
    }
    #expect(shards.allSatisfy { !$0.isEmpty }, "4 shards of 40 scenarios are all used: \(shards)")
    #expect(
      shards[0] == [
        "s1", "s4", "s6", "s8", "s10", "s11", "s19", "s21", "s22", "s25", "s29", "s31", "s32", "s33", "s36", "s37",
        "s40",
      ])
  }
}
