import Foundation
import Testing

/// The commands that write a file of their own (`schema --output`, `graph --output`) write it as
/// reports are written: atomically, through a symbolic link (the link kept), to a stream such as
/// `/dev/stdout` as is; a path that cannot be written is exit 2. Foundation's atomic write renamed
/// a new file over the link — as root, over `/dev/stdout` itself.
@Suite struct OutputFileTests {
  @Test func schemaOutputIsWrittenThroughALinkAndToAStream() async throws {
    try await Workspace.with([:]) { directory in
      try FileManager.default.createDirectory(atPath: directory + "/runs", withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: directory + "/schema.json", withDestinationPath: "runs/report.schema.json")
      let linked = try await CLIProcess.run(["schema", "report", "--output", "schema.json"], in: directory)
      #expect(linked.status == 0, "\(linked.standardError)")
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/schema.json")
          == "runs/report.schema.json")
      let written = try String(contentsOfFile: directory + "/runs/report.schema.json", encoding: .utf8)
      #expect(written.contains("\"$defs\""))

      let streamed = try await CLIProcess.run(["schema", "report", "--output", "/dev/stdout"], in: directory)
      #expect(streamed.status == 0, "\(streamed.standardError)")
      #expect(streamed.standardOutput == written)
      var info = stat()
      #expect(lstat("/dev/stdout", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)

      let unwritable = try await CLIProcess.run(["schema", "report", "--output", "/proc/x/s.json"], in: directory)
      #expect(unwritable.status == 2)
      #expect(unwritable.standardError.contains("error: cannot write the schema: "), "\(unwritable.standardError)")
    }
  }
}
