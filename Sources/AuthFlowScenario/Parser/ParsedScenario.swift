public import AuthFlowCore

/// The parse stage's output: one file's located YAML read into a `Scenario`, with every problem
/// parsing found. The scenario is nil only when the text is not YAML or not a mapping; the
/// validate stage (`ScenarioValidator.validate(_:)` on it) takes it from here.
public struct ParsedScenario: Sendable {
  public let file: String
  public let scenario: Scenario?
  public let diagnostics: [Diagnostic]
}

extension ScenarioParser {
  /// Parses YAML text into the parse stage's output.
  public func parsed(_ text: String, file: String) -> ParsedScenario {
    let (scenario, diagnostics) = parse(text, file: file)
    return ParsedScenario(file: file, scenario: scenario, diagnostics: diagnostics)
  }
}
