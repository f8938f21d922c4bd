import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
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

  /// Pinned: a machine (or a later version) that put these files in other shards would split a
  /// CI run's shards differently from the others.
  @Test func theAssignmentIsPinned() throws {
    let instances = try Self.instances()
    let shards = (1...4).map { index in
      Selection(shard: Shard(index: index, count: 4)).apply(to: instances).map(\.name)
    }
    #expect(shards.allSatisfy { !$0.isEmpty }, "4 shards of 40 scenarios are all used: \(shards)")
    #expect(shards[0] == ["s10", "s12", "s14", "s16", "s18", "s30", "s32", "s34", "s36", "s38"])
  }
}
