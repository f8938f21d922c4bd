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

  static func build(_ files: [File], expecting expectedFiles: Int = 0) -> PlannedInstances {
    var builder = PlanIndex.Builder()
    builder.expectedFiles = expectedFiles
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

  /// Sized for the files to come once the first ones are in: the plan is the same whether the
  /// count given was right, too low (the arrays grow past it) or too high (copied to size).
  @Test(arguments: [0, 1_000, 200, 5_000])
  func thePlanIsTheSameWhateverTheExpectedCount(expected: Int) {
    let files = (0..<1_000).map { number in
      let file = Self.files[number % Self.files.count]
      let names = number % 7 == 0 ? (0..<(number % 5)).map { "\(number) [m=\($0)]" } : file.names
      return File(path: "dir\(number % 3)/\(number)-" + file.path, names: names, tags: file.tags, moves: file.moves)
    }
    let plan = Self.build(files, expecting: expected)
    #expect(plan.isPacked)
    #expect(Self.described(plan) == Self.expected(files))
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
