/// The reporters `--reporter` can name, sorted by name.
public struct ReporterRegistry: Sendable {
  /// Every reporter, sorted by ``ReporterDescription/name``.
  public let reporters: [any Reporter.Type]

  public init(_ reporters: [any Reporter.Type]) {
    self.reporters = reporters.sorted { $0.description.name < $1.description.name }
  }

  /// The built-in reporters. Add a new one here (the list is kept sorted; a test checks).
  public static let builtIn = ReporterRegistry([
    ConsoleReporter.self,
    GitHubReporter.self,
    HTMLReporter.self,
    JSONReporter.self,
    JUnitReporter.self,
  ])

  /// The reporter called `name`, if any.
  public func reporter(named name: String) -> (any Reporter.Type)? {
    reporters.first { $0.description.name == name }
  }

  /// Every reporter's name.
  public var names: [String] { reporters.map { $0.description.name } }

  /// Every valid `--reporter` form: `console`, `junit:FILE`, ….
  public var usages: [String] { reporters.map { $0.description.usage } }

  /// Builds the reporters for already parsed specs. Specs naming no reporter of this registry are
  /// ignored (``ReporterSpec/parse(_:in:)`` never produces them).
  public func make(_ specs: [ReporterSpec], context: ReporterContext) -> ReporterGroup {
    ReporterGroup(
      specs.compactMap { spec in reporter(named: spec.name).map { $0.init(spec: spec, context: context) } })
  }

  /// Parses the CLI's `--reporter` values (console when none) and builds the reporters.
  public func make(arguments: [String], context: ReporterContext) throws(ReporterSpecError) -> ReporterGroup {
    make(try ReporterSpec.parseAll(arguments, in: self), context: context)
  }
}
