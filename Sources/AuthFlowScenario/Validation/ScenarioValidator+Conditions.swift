import AuthFlowCore
import AuthFlowExpression

extension ScenarioValidator {
  /// A condition — a step's `if:`, `retry.until`, or a parameter that is one (`assert`'s `that`)
  /// — that is a string: any string but `""` is true, so `that: "${{ steps.a.x }} == 2"` (the
  /// comparison left outside the braces, as text) or `that: "false"` held whatever the tenant
  /// answered, and an `if:` written so always ran its step. Such a condition is an error.
  func checkConditions(_ graph: FlowGraph) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for node in graph.nodes {
      let step = node.step
      var conditions: [(template: Template, label: String)] = []
      if let condition = step.condition { conditions.append((condition, "'if'")) }
      if let until = step.retry?.until { conditions.append((until, "'retry.until'")) }
      let action = step.action.name.value
      for (key, template) in catalog?[action]?.conditions(in: step.action.parameters) ?? [] {
        conditions.append((template, key.map { "\(action)'s '\($0)'" } ?? "'\(action)'"))
      }
      for (template, label) in conditions {
        if let problem = Self.stringCondition(template, label: label) { diagnostics.append(problem) }
      }
    }
    return diagnostics
  }

  /// The error for a condition that is a string, literal or interpolated; nil for anything else.
  static func stringCondition(_ template: Template, label: String) -> Diagnostic? {
    let what: String
    switch template {
    case .literal(.string(let text), _):
      what = "the string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
    case .expression(.interpolated, _):
      what = "a string (its text around or between ${{ … }} is not part of the condition)"
    default:
      return nil
    }
    return .error(
      "\(label) is \(what), and any string but \"\" is true, so this condition cannot fail", at: template.location,
      hint: "put the whole condition inside one ${{ … }}, as in ${{ steps.login.status == 200 }}; "
        + "for a fixed value write true or false without quotes")
  }
}
