/// One or more reporters could not write their output (an unwritable path, a full disk).
public struct ReportWriteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One reporter's failure.
  public struct Failure: Sendable, Hashable {
    public var reporter: String
    public var message: String
  }

  public var failures: [Failure]

  public var description: String {
    failures.map { "reporter '\($0.reporter)' could not write its output: \($0.message)" }
      .joined(separator: "\n")
  }
}
