import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

let testFile = "test.yaml"

/// Parses and validates marked YAML with the test catalog.
func load(_ input: MarkedText, catalog: ActionCatalog? = .test) -> (scenario: Scenario?, diagnostics: [Diagnostic]) {
  ScenarioLoader(catalog: catalog).load(text: input.text, file: testFile)
}

/// The diagnostics of marked YAML.
func diagnostics(_ input: MarkedText, catalog: ActionCatalog? = .test) -> [Diagnostic] {
  load(input, catalog: catalog).diagnostics
}

/// Expects exactly one diagnostic at `position` whose message contains `message`, and returns it.
@discardableResult
func expectDiagnostic(
  _ diagnostics: [Diagnostic], at position: MarkedText.Position, _ message: String, hint: String? = nil,
  severity: Diagnostic.Severity = .error, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Diagnostic? {
  let matching = diagnostics.filter {
    $0.location?.line == position.line && $0.location?.column == position.column && $0.message.contains(message)
  }
  #expect(
    matching.count == 1,
    "expected one '\(message)' at \(position), got:\n\(diagnostics.map(\.description).joined(separator: "\n"))",
    sourceLocation: sourceLocation)
  guard let found = matching.first else { return nil }
  #expect(found.severity == severity, sourceLocation: sourceLocation)
  if let hint {
    #expect(found.hint == hint, sourceLocation: sourceLocation)
  }
  return found
}

/// Expects no diagnostics at all.
func expectClean(_ diagnostics: [Diagnostic], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  #expect(
    diagnostics.isEmpty, "\(diagnostics.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
}
