import Foundation

/// The text of an input file for a diagnostic's snippet: read only when it is within
/// ``InputLimits/fileBytes``, its size checked before a byte is read. A file refused for its size
/// gets its diagnostic at once and without a snippet, instead of being read whole to quote line 1.
public enum SourceText {
  public static func read(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0, Int(info.st_size) <= InputLimits.fileBytes else { return nil }
    return try? String(contentsOfFile: path, encoding: .utf8)
  }
}
