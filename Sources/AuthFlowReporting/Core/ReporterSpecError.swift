/// A `--reporter` value that is not one of the valid forms. Its description is the message.
public struct ReporterSpecError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The value as given.
  public var value: String
  public var description: String

  static func unknown(_ value: String, usages: [String], hint: String?) -> ReporterSpecError {
    let valid = usages.map { "'\($0)'" }.joined(separator: ", ")
    let suggestion = hint.map { "; \($0)" } ?? ""
    return ReporterSpecError(
      value: value, description: "unknown reporter '\(value)'\(suggestion) (valid: \(valid))")
  }

  static func missingFile(_ value: String, usage: String) -> ReporterSpecError {
    ReporterSpecError(value: value, description: "reporter '\(value)' needs a file to write: use '\(usage)'")
  }

  static func unexpectedFile(_ value: String, usage: String) -> ReporterSpecError {
    ReporterSpecError(
      value: value, description: "reporter '\(value)' writes to standard output and takes no file: use '\(usage)'")
  }
}
