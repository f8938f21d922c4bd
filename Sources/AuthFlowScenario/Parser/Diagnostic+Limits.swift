import AuthFlowCore
import AuthFlowYAML

// The messages of values out of their documented range and inputs past a resource limit (see
// `InputLimits` and docs/scenario-language.md, "Limits").
extension Diagnostic {
  static func durationTooLong(
    _ text: String, for key: String, maximum: Duration, at node: YAMLNode, signed: Bool = false
  ) -> Diagnostic {
    let range =
      signed
      ? "-\(DurationText.describe(maximum)) to \(DurationText.describe(maximum))"
      : "0 to \(DurationText.describe(maximum))"
    return .error(
      "'\(text)' is too long for '\(key)' (the range is \(range))", at: node.location, length: node.underlineLength,
      hint: "durations are bounded so that no step can wait forever; see 'Limits' in docs/scenario-language.md")
  }

  static func tooManySteps(_ count: Int, at location: SourceLocation) -> Diagnostic {
    .error(
      "the scenario has \(count) steps, more than the limit of \(InputLimits.stepsPerScenario)", at: location,
      hint: "split it into several scenarios")
  }

  static func tooManyMatrixInstances(at location: SourceLocation) -> Diagnostic {
    .error(
      "the matrix expands to more than \(InputLimits.matrixInstances) instances", at: location,
      hint: "the instance count is the product of the lengths of the axes; use fewer axes or values")
  }
}
