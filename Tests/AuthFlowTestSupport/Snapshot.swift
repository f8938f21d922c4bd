import Foundation

/// Compares text output with a checked-in snapshot under `Tests/<Suite>/__Snapshots__/NAME.txt`.
///
/// Set `AUTHFLOW_RECORD_SNAPSHOTS=1` to (re)write snapshots; a missing snapshot is recorded and
/// reported as a failure, so a test never passes on a snapshot nobody has looked at.
public enum Snapshot {
  public struct Mismatch: Error, CustomStringConvertible {
    public let description: String
  }

  /// Returns nil when `actual` matches the snapshot, or a readable diff.
  public static func verify(
    _ actual: String, named name: String, file: StaticString = #filePath
  ) -> Mismatch? {
    let testFile = URL(fileURLWithPath: "\(file)")
    let directory = testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let snapshotURL = directory.appendingPathComponent("\(name).txt")
    let record = ProcessInfo.processInfo.environment["AUTHFLOW_RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: snapshotURL, encoding: .utf8) else {
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try? actual.write(to: snapshotURL, atomically: true, encoding: .utf8)
      return record ? nil : Mismatch(description: "recorded new snapshot \(snapshotURL.path); check it and rerun")
    }
    if expected == actual { return nil }
    return Mismatch(description: diff(expected: expected, actual: actual, name: name))
  }

  /// A line diff that shows the first differing lines with context.
  public static func diff(expected: String, actual: String, name: String) -> String {
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var report = ["snapshot '\(name)' differs:"]
    for index in 0..<max(expectedLines.count, actualLines.count) {
      let left = index < expectedLines.count ? String(expectedLines[index]) : nil
      let right = index < actualLines.count ? String(actualLines[index]) : nil
      if left != right {
        if let left { report.append("-\(index + 1): \(left)") }
        if let right { report.append("+\(index + 1): \(right)") }
      }
      if report.count > 40 { break }
    }
    return report.joined(separator: "\n")
  }
}
