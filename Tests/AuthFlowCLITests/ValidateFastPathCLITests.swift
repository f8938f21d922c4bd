import Foundation
import Testing

/// `authflow validate PATH…` with nothing but paths skips ArgumentParser (a fifth of a cold start,
/// docs/benchmarks.md); `validate -- PATH…` goes through it with the same paths. Both must answer
/// alike: same exit code, same output, for valid, invalid, missing and several paths, and none.
@Suite struct ValidateFastPathCLITests {
  static let valid = """
    scenario: Valid
    steps:
      - wait: 1ms
    """

  static let invalid = """
    scenario: Invalid
    steps:
      - id: a
        wait: 1ms
      - assert: ${{ steps.nope.x }}
    """

  @Test(arguments: [
    ["ok.yaml"], ["bad.yaml"], ["nope.yaml"], ["ok.yaml", "bad.yaml"], ["sub"], [], ["ok.yaml", "ok.yaml"],
  ])
  func plainPathsAnswerAsArgumentParserDoes(_ paths: [String]) async throws {
    try await Workspace.with(["ok.yaml": Self.valid, "bad.yaml": Self.invalid]) { directory in
      try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)
      try Self.valid.write(toFile: directory + "/sub/one.yaml", atomically: false, encoding: .utf8)
      let direct = try await CLIProcess.run(["validate"] + paths, in: directory)
      let parsed = try await CLIProcess.run(["validate", "--"] + paths, in: directory)
      #expect(direct.status == parsed.status)
      #expect(direct.standardOutput == parsed.standardOutput)
      #expect(direct.standardError == parsed.standardError)
      #expect(direct.status == (paths == ["ok.yaml"] || paths == ["sub"] || paths == ["ok.yaml", "ok.yaml"] ? 0 : 2))
    }
  }

  @Test func optionsStillGoThroughArgumentParser() async throws {
    try await Workspace.with(["ok.yaml": Self.valid]) { directory in
      let help = try await CLIProcess.run(["validate", "--help"], in: directory)
      #expect(help.status == 0)
      #expect(help.standardOutput.contains("USAGE: authflow validate"), "\(help.standardOutput)")
      let unknown = try await CLIProcess.run(["validate", "--nope", "ok.yaml"], in: directory)
      #expect(unknown.status == 2, "\(unknown.standardError)")
      let configured = try await CLIProcess.run(["validate", "ok.yaml", "--config", "missing.yaml"], in: directory)
      #expect(configured.status == 2, "\(configured.standardError)")
    }
  }
}

/// A file past the size limit is refused from its size alone: nothing reads it, not even to quote
/// its first line under the error. A 64 GiB sparse file takes no disk, and reading it whole would
/// take 64 GiB of memory: the commands answer only if they never do.
@Suite struct OversizedFileCLITests {
  @Test(arguments: [["validate"], ["run"]])
  func aHugeFileIsRefusedUnread(_ command: [String]) async throws {
    try await Workspace.with([:]) { directory in
      let path = directory + "/huge.yaml"
      #expect(FileManager.default.createFile(atPath: path, contents: Data("scenario: x\n".utf8)))
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.truncate(atOffset: 64 << 30)
      try handle.close()
      let outcome = try await CLIProcess.run(command + ["huge.yaml"], in: directory, limit: .seconds(60))
      #expect(outcome.status == 2)
      #expect(
        outcome.standardError.contains("huge.yaml:1:1: error: the file is 68719476736 bytes, more than the limit"),
        "\(outcome.standardError)")
    }
  }
}
