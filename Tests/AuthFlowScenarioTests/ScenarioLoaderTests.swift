import AuthFlowCore
import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowScenario

@Suite struct ScenarioLoaderTests {
  static let valid = "scenario: ok\nsteps:\n  - logout:\n"

  @Test func findsScenariosRecursivelySkippingConfigAndTenants() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("b.yaml", Self.valid)
    try directory.write("a/z.yml", Self.valid)
    try directory.write("a/y.yaml", "scenario: broken\nsteps: 3\n")
    try directory.write("authflow.yaml", "tenants: {}\n")
    try directory.write("tenants/mock.yaml", "clients: []\n")
    try directory.write("a/tenants/other.yaml", "clients: []\n")
    try directory.write("notes.txt", "not yaml")
    let output = await ScenarioLoader(catalog: .test).load([directory.path])
    #expect(output.files == ["a/y.yaml", "a/z.yml", "b.yaml"].map { directory.path + "/" + $0 })
    #expect(output.scenarios.map(\.title.value) == ["broken", "ok", "ok"])
    #expect(
      output.diagnostics.map(\.description) == [
        "\(directory.path)/a/y.yaml:2:8: error: expected a list of steps for 'steps', found an integer"
      ])
    #expect(output.sources.count == 3)
  }

  /// A file named twice — on its own and inside a directory given too, or spelt another way — is
  /// one scenario, loaded and run once.
  @Test func aFileNamedTwiceIsLoadedOnce() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("a.yaml", Self.valid)
    try directory.write("sub/b.yaml", Self.valid)
    let output = await ScenarioLoader(catalog: .test).load([
      directory.path, directory.path + "/sub/b.yaml", directory.path + "/./a.yaml", directory.path + "/sub/../a.yaml",
    ])
    #expect(output.files == ["a.yaml", "sub/b.yaml"].map { directory.path + "/" + $0 })
    #expect(output.scenarios.count == 2)
  }

  /// A directory given as a symbolic link is searched (as `find -H` does), and its files are named
  /// under the link as given; it once found "no scenario files in this directory".
  @Test func aDirectoryGivenAsALinkIsSearched() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("real/a.yaml", Self.valid)
    try directory.write("real/nested/b.yaml", Self.valid)
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/link", withDestinationPath: directory.path + "/real")
    let output = await ScenarioLoader(catalog: .test).load([directory.path + "/link"])
    #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
    #expect(output.files == ["link/a.yaml", "link/nested/b.yaml"].map { directory.path + "/" + $0 })
    #expect(output.scenarios.count == 2)
  }

  /// Files are named by their place under the directory, whatever their path repeats: a nested
  /// directory whose path contains the base path's once lost that text from its name
  /// (`BASE/a/BASE/x.yaml` became `BASE/ax.yaml`). A link to a file is a file; a link to a
  /// directory inside the tree is not walked (no cycles).
  @Test func namesAreThePathsUnderTheDirectory() async throws {
    let directory = try TemporaryDirectory()
    let repeated = "a" + directory.path
    try directory.write(repeated + "/x.yaml", Self.valid)
    try directory.write("plain.YML", Self.valid)
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/linked.yaml", withDestinationPath: directory.path + "/plain.YML")
    try FileManager.default.createSymbolicLink(atPath: directory.path + "/a/loop", withDestinationPath: directory.path)
    let output = await ScenarioLoader(catalog: .test).load([directory.path])
    #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
    #expect(
      output.files == [repeated + "/x.yaml", "linked.yaml", "plain.YML"].map { directory.path + "/" + $0 })
  }

  /// A directory that cannot be read is an error naming it, not a gap in the run: the files that
  /// could be read are still found, and a directory with nothing readable is not "empty".
  /// (Running as root, permissions cannot make `opendir` fail, so the test makes it fail.)
  @Test func anUnreadableDirectoryIsAnError() throws {
    let directory = try TemporaryDirectory()
    try directory.write("a.yaml", Self.valid)
    try directory.write("locked/b.yaml", Self.valid)
    let refusing: (String) -> DirectoryStream? = { $0.hasSuffix("/locked") ? nil : opendir($0) }
    let found = ScenarioFiles.find(at: directory.path, openDirectory: refusing)
    #expect(Array(found.files) == [directory.path + "/a.yaml"])
    #expect(
      found.diagnostics.map(\.description) == [
        "\(directory.path)/locked:1:1: error: cannot read the directory, so its scenarios cannot run"
      ])
    let nothing = ScenarioFiles.find(at: directory.path, openDirectory: { _ in nil })
    #expect(nothing.files.isEmpty)
    #expect(nothing.diagnostics.map(\.message) == ["cannot read the directory, so its scenarios cannot run"])
  }

  @Test func missingFileAndEmptyDirectory() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("empty/authflow.yaml", "tenants: {}\n")
    let output = await ScenarioLoader().load([directory.path + "/nope.yaml", directory.path + "/empty"])
    #expect(
      output.diagnostics.map(\.description) == [
        "\(directory.path)/nope.yaml:1:1: error: no such file",
        "\(directory.path)/empty:1:1: error: no scenario files in this directory",
      ])
  }

  @Test func manyFilesLoadInParallelInPathOrder() async throws {
    let directory = try TemporaryDirectory()
    for index in 0..<200 {
      try directory.write(String(format: "s%03d.yaml", index), "scenario: s\(index)\nsteps:\n  - logout:\n")
    }
    let output = await ScenarioLoader(catalog: .test).load([directory.path])
    #expect(output.scenarios.map(\.title.value) == (0..<200).map { "s\($0)" })
    #expect(output.diagnostics.isEmpty)
  }
}

/// A directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory: Sendable {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func write(_ relative: String, _ text: String) throws {
    let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The packed list of found paths against an array of strings: the same paths, read back, sorted
/// and filtered the same, ASCII or not.
@Suite struct PathListTests {
  @Test(arguments: [false, true])
  func behavesAsAnArrayOfStrings(withNonASCII: Bool) {
    var generator = SystemRandomNumberGenerator()
    let pieces =
      ["a", "B", "z", "_", "-", ".", "/", "0", "9", "scenario-", "yaml"]
      + (withNonASCII ? ["é", "e\u{301}", "Ω", "😀"] : [])
    let paths = (0..<2_000).map { _ in
      (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
    let list = PathList(paths)
    #expect(Array(list) == paths)
    #expect(Array(list.sorted()) == paths.sorted())
    #expect(Array(list.filter { $0.hasPrefix("a") }) == paths.filter { $0.hasPrefix("a") })
    var joined = list
    joined.append(contentsOf: PathList(["x/y.yaml", ""]))
    #expect(Array(joined) == paths + ["x/y.yaml", ""])
    #expect(Array(joined.sorted()) == (paths + ["x/y.yaml", ""]).sorted())
    var nonASCIIFirst = PathList(["é/b.yaml"])
    nonASCIIFirst.append(contentsOf: list)
    #expect(Array(nonASCIIFirst.sorted()) == (["é/b.yaml"] + paths).sorted())
    #expect(joined.contains(pathStartingWith: "x/y"))
    #expect(!joined.contains(pathStartingWith: "x/y.yaml/"))
    #expect(
      list.contains(pathStartingWith: "a") == paths.contains { $0.hasPrefix("a") })
    #expect(PathList().isEmpty && PathList().sorted().isEmpty)
  }
}
