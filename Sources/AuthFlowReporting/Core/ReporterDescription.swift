/// How a reporter describes itself to the CLI, `--help` and the registry tests.
public struct ReporterDescription: Sendable, Hashable {
  /// The name before the colon in `--reporter NAME[:FILE]`.
  public var name: String
  /// True when the reporter writes a file and needs `NAME:FILE`.
  public var takesFile: Bool
  /// One sentence for `--help`.
  public var summary: String
  /// A `--reporter` value that selects this reporter; the registry tests parse it.
  public var example: String

  public init(name: String, takesFile: Bool, summary: String, example: String) {
    self.name = name
    self.takesFile = takesFile
    self.summary = summary
    self.example = example
  }

  /// `console` or `junit:FILE`.
  public var usage: String { takesFile ? "\(name):FILE" : name }
}
