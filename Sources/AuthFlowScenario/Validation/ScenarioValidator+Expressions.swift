import AuthFlowCore
import AuthFlowExpression

extension ScenarioValidator {
  /// Unknown roots and functions, wrong argument counts and invalid literal arguments in every
  /// expression of the scenario, located at the offending name.
  func checkExpressions(_ scenario: Scenario, templates stepTemplates: [[StepTemplate]]) -> [Diagnostic] {
    var templates: [Template] = scenario.vars.map(\.value) + scenario.matrix.flatMap(\.values)
    for step in stepTemplates {
      templates += step.map(\.template)
    }
    var diagnostics: [Diagnostic] = []
    for template in templates {
      for (string, location) in template.expressions {
        for error in string.check(functions: functions, roots: EvaluationContext.standardRoots) {
          diagnostics.append(.expressionCheck(error, at: location))
        }
      }
    }
    return diagnostics
  }
}

extension Diagnostic {
  static func expressionCheck(_ error: ExpressionError, at start: SourceLocation) -> Diagnostic {
    .error(error.message, at: start.advanced(by: error.offset), length: max(1, error.length), hint: error.hint)
  }
}
