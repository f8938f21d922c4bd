import AuthFlowCore

extension ScenarioValidator {
  /// `vars.X` must be declared under `vars` (before the var reading it, since vars are evaluated
  /// in order) or saved by a step; `matrix.X` must be a matrix axis.
  func checkNames(_ scenario: Scenario, templates: [[StepTemplate]]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let declared = scenario.vars.map(\.name.value)
    let steps = scenario.steps + scenario.cleanup
    let defined = steps.filter { catalog?[$0.action.name.value]?.definesVariables == true }
      .flatMap { $0.action.parameters.members?.map(\.key.value) ?? [] }
    let saved = steps.flatMap(\.save).map(\.name.value) + defined
    let axes = scenario.matrix.map(\.name.value)
    let known = Set(declared + saved)

    func check(_ references: [ExpressionReference], declaredSoFar: Set<String>?) {
      for reference in references {
        guard let name = reference.path.first else { continue }
        switch reference.root {
        case "vars":
          if let declaredSoFar, declared.contains(name), !declaredSoFar.contains(name) {
            diagnostics.append(.varUsedBeforeDeclared(name, at: reference.location, length: reference.length))
          } else if !known.contains(name) {
            diagnostics.append(
              .unknownVar(
                name, at: reference.location, length: reference.length,
                hint: Suggestion.hint(for: name, in: declared + saved)))
          }
        case "matrix" where !axes.contains(name):
          diagnostics.append(
            .unknownMatrixAxis(
              name, at: reference.location, length: reference.length, hint: Suggestion.hint(for: name, in: axes)))
        default:
          break
        }
      }
    }

    var declaredSoFar: Set<String> = []
    for binding in scenario.vars {
      check(binding.value.references, declaredSoFar: declaredSoFar)
      declaredSoFar.insert(binding.name.value)
    }
    for template in scenario.matrix.flatMap(\.values) { check(template.references, declaredSoFar: []) }
    for step in templates {
      for template in step { check(template.references, declaredSoFar: nil) }
    }
    return diagnostics
  }
}

extension Diagnostic {
  static func unknownVar(_ name: String, at location: SourceLocation, length: Int, hint: String?) -> Diagnostic {
    .error(
      "vars.\(name) is neither declared under 'vars' nor saved by a step", at: location, length: length,
      hint: hint ?? "declare it under 'vars:' or 'save' it from a step")
  }

  static func varUsedBeforeDeclared(_ name: String, at location: SourceLocation, length: Int) -> Diagnostic {
    .error(
      "vars.\(name) is read before it is declared", at: location, length: length,
      hint: "vars are evaluated in order: move '\(name)' above the var that reads it")
  }

  static func unknownMatrixAxis(
    _ name: String, at location: SourceLocation, length: Int, hint: String?
  )
    -> Diagnostic
  {
    .error(
      "matrix.\(name) is not a matrix axis", at: location, length: length,
      hint: hint ?? "add '\(name)' under 'matrix:'")
  }
}
