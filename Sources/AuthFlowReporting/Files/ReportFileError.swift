#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a report file cannot be written. Its description is the message.
public struct ReportFileError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String

  static func directory(_ directory: String, reason: String) -> ReportFileError {
    ReportFileError(description: "cannot create the directory '\(directory)': \(reason)")
  }

  static func isDirectory(_ path: String) -> ReportFileError {
    ReportFileError(description: "'\(path)' is a directory")
  }

  static func system(_ what: String, path: String, errno code: Int32) -> ReportFileError {
    ReportFileError(description: "\(what) '\(path)': \(String(cString: strerror(code)))")
  }
}
