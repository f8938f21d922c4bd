import AuthFlowCore

/// One template of a step — its parameters, `if`, `retry.until`, an `expect` operand or a `save`
/// value — with the references its expressions make, found once for every check that reads them.
struct StepTemplate {
  enum Part {
    case parameters, condition, retryUntil, expect, save
  }

  var part: Part
  var template: Template
  /// Whether the step's own result exists when the template is evaluated.
  var ownResultAvailable: Bool
  var references: [ExpressionReference]

  init(_ part: Part, _ template: Template, ownResultAvailable: Bool) {
    self.part = part
    self.template = template
    self.ownResultAvailable = ownResultAvailable
    references = template.references
  }

  /// What a message calls the part, in a step of `action`.
  func label(action: String) -> String {
    switch part {
    case .parameters: return "its '\(action)' parameters"
    case .condition: return "its 'if'"
    case .retryUntil: return "'retry.until'"
    case .expect: return "'expect'"
    case .save: return "'save'"
    }
  }
}

extension Step {
  /// The templates of the step, in the order the checks report them: parameters, `if`,
  /// `retry.until`, each `expect` operand, each `save`.
  var templates: [StepTemplate] {
    var templates = [StepTemplate(.parameters, action.parameters, ownResultAvailable: false)]
    if let condition { templates.append(StepTemplate(.condition, condition, ownResultAvailable: false)) }
    if let until = retry?.until { templates.append(StepTemplate(.retryUntil, until, ownResultAvailable: true)) }
    for expectation in expectations {
      for matcher in expectation.matchers {
        templates.append(StepTemplate(.expect, matcher.operand, ownResultAvailable: true))
      }
    }
    for binding in save { templates.append(StepTemplate(.save, binding.value, ownResultAvailable: true)) }
    return templates
  }
}
