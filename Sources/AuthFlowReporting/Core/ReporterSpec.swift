import AuthFlowCore

/// One parsed `--reporter` value: `console`, `github`, `junit:FILE` or `json:FILE`.
public struct ReporterSpec: Sendable, Hashable, CustomStringConvertible {
  /// The reporter's name, as in ``ReporterDescription/name``.
  public var name: String
  /// The file to write, for reporters that take one.
  public var path: String?

  public init(name: String, path: String? = nil) {
    self.name = name
    self.path = path
  }

  public var description: String { path.map { "\(name):\($0)" } ?? name }

  /// Parses one `--reporter` value against the reporters of `registry`.
  public static func parse(
    _ text: String, in registry: ReporterRegistry = .builtIn
  ) throws(ReporterSpecError) -> ReporterSpec {
    let trimmed = text.trimmingWhitespace()
    let name: String
    let path: String?
    if let colon = trimmed.firstIndex(of: ":") {
      name = String(trimmed[..<colon]).lowercased()
      path = String(trimmed[trimmed.index(after: colon)...])
    } else {
      name = trimmed.lowercased()
      path = nil
    }
    guard let reporter = registry.reporter(named: name) else {
      throw .unknown(text, usages: registry.usages, hint: Suggestion.hint(for: name, in: registry.names))
    }
    let description = reporter.description
    switch (description.takesFile, path) {
    case (true, nil), (true, ""?): throw .missingFile(text, usage: description.usage)
    case (false, _?): throw .unexpectedFile(text, usage: description.usage)
    default: return ReporterSpec(name: description.name, path: path)
    }
  }

  /// Parses every `--reporter` value, in order, without duplicates; `console` when none is given.
  public static func parseAll(
    _ texts: [String], in registry: ReporterRegistry = .builtIn
  ) throws(ReporterSpecError) -> [ReporterSpec] {
    guard !texts.isEmpty else { return [ReporterSpec(name: ConsoleReporter.description.name)] }
    var specs: [ReporterSpec] = []
    for text in texts {
      let spec = try parse(text, in: registry)
      if !specs.contains(spec) { specs.append(spec) }
    }
    return specs
  }
}
