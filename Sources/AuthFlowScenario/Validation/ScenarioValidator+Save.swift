import AuthFlowCore
import AuthFlowYAML

extension ScenarioValidator {
  /// Two steps saving the same name (an error: which value wins would depend on timing), and a
  /// saved name that overwrites a declared var (a warning).
  func checkSaves(_ scenario: Scenario) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let declared = Dictionary(scenario.vars.map { ($0.name.value, $0.name.location) }, uniquingKeysWith: { a, _ in a })
    var saved: [String: (name: Located<String>, step: String)] = [:]
    for step in scenario.steps + scenario.cleanup {
      for binding in step.save {
        let name = binding.name
        if let first = saved[name.value] {
          diagnostics.append(.duplicateSave(name, first: first.name, firstStep: first.step))
          continue
        }
        saved[name.value] = (name, step.id.value)
        if let location = declared[name.value] {
          diagnostics.append(.saveShadowsVar(name, declared: location))
        }
      }
    }
    return diagnostics
  }
}
