import AuthFlowCore
import Testing

@testable import AuthFlowRuntime

/// The packed plan (``PlanIndex/Builder``): every instance read back as it was added, in order,
/// and a text too long to pack turns the whole plan into plain instances without losing or
/// reordering any.
@Suite struct PlanIndexBuilderTests {
  struct File {
    var path: String
    var names: [String]
    var tags: [String]
    var moves: Bool
  }

  static let files = [
    File(path: "scenarios/a/login.yaml", names: ["login"], tags: ["smoke"], moves: false),
    File(path: "scenarios/a/matrix.yaml", names: ["m [x=1]", "m [x=2]"], tags: ["smoke"], moves: true),
    File(path: "bare.yaml", names: ["bare"], tags: [], moves: false),
    File(path: "scenarios/b/broken.yaml", names: [], tags: ["x"], moves: false),
    File(path: "scenarios/b/last.yaml", names: ["last"], tags: ["a", "b"], moves: false),
  ]

  static func expected(_ files: [File]) -> [String] {
    files.flatMap { file in
      file.names.enumerated().map { "\(file.path)#\($1)#\($0)#\(file.tags)#\(file.moves)#3:1" }
    }
  }

  static func described(_ plan: PlannedInstances) -> [String] {
    plan.map {
      "\($0.file)#\($0.name)#\($0.index)#\($0.tags)#\($0.movesMockClock)#\($0.location.line):\($0.location.column)"
    }
  }

  static func build(_ files: [File]) -> PlannedInstances {
    var builder = PlanIndex.Builder()
    for file in files {
      builder.add(
        PlanIndex.FileRecord(
          file: file.path, location: SourceLocation(file: file.path, line: 3, column: 1), tags: file.tags,
          movesMockClock: file.moves, names: file.names))
    }
    return builder.build()
  }

  @Test func everyInstanceIsReadBackPacked() {
    let plan = Self.build(Self.files)
    #expect(plan.isPacked)
    #expect(Self.described(plan) == Self.expected(Self.files))
    #expect(plan.indices.map { plan.movesMockClock(at: $0) } == [false, true, true, false, false])
  }

  @Test func aNameTooLongToPackKeepsEveryInstanceUnpacked() {
    var files = Self.files
    files.insert(
      File(
        path: "scenarios/long.yaml", names: ["short", String(repeating: "n", count: 70_000)], tags: [], moves: false),
      at: 2)
    let plan = Self.build(files)
    #expect(!plan.isPacked)
    #expect(Self.described(plan) == Self.expected(files))
  }
}
