import AuthFlowCore
import AuthFlowYAML

// The validator's messages: graph and reference problems, found after parsing.
extension Diagnostic {
  static func unknownNeed(_ id: Located<String>, step: String, hint: String?) -> Diagnostic {
    .error(
      "step '\(step)' needs '\(id.value)', but there is no step with that id", at: id.location,
      length: id.value.count, hint: hint)
  }

  static func generatedIDReference(
    _ id: String, at location: SourceLocation, length: Int, step: SourceLocation?
  )
    -> Diagnostic
  {
    .error(
      "'\(id)' is a generated id and cannot be referred to", at: location, length: length,
      notes: step.map { [Note("the step without an id is here", at: $0)] } ?? [],
      hint: "give that step an 'id:' and use it here")
  }

  static func needsCleanupStep(_ id: Located<String>, step: String) -> Diagnostic {
    .error(
      "step '\(step)' needs the cleanup step '\(id.value)', but cleanup runs after every other step",
      at: id.location, length: id.value.count, hint: "move '\(id.value)' under 'steps:' or remove it from 'needs'")
  }

  static func cycle(_ path: [String], at location: SourceLocation, length: Int) -> Diagnostic {
    let steps = (path + path.prefix(1)).joined(separator: " → ")
    let message =
      path.count == 1
      ? "step '\(path[0])' needs itself"
      : "steps wait for each other in a cycle: \(steps)"
    return .error(
      message, at: location, length: length,
      hint: path.count == 1
        ? "remove '\(path[0])' from its own 'needs'"
        : "each step needs the next one; remove one of these from 'needs' to break the cycle")
  }

  static func unknownStepReference(
    _ id: String, from step: String?, at location: SourceLocation, length: Int, hint: String?
  ) -> Diagnostic {
    let subject = step.map { "step '\($0)' refers" } ?? "this refers"
    return .error("\(subject) to steps.\(id), but there is no step '\(id)'", at: location, length: length, hint: hint)
  }

  static func notAnAncestor(
    _ id: String, from step: String, at location: SourceLocation, length: Int, definedAt: SourceLocation?
  ) -> Diagnostic {
    .error(
      "step '\(step)' refers to steps.\(id), but '\(id)' does not run before '\(step)'", at: location,
      length: length, notes: definedAt.map { [Note("'\(id)' is defined here", at: $0)] } ?? [],
      hint: "add '\(id)' to the 'needs' of '\(step)'")
  }

  static func ownResultTooEarly(
    _ id: String, in part: String, at location: SourceLocation, length: Int
  )
    -> Diagnostic
  {
    .error(
      "step '\(id)' refers to its own result in \(part), before it has run", at: location, length: length,
      hint: "its result can be read in 'expect', 'save' and 'retry.until'")
  }

  static func stepReferenceBeforeSteps(
    _ id: String, in part: String, at location: SourceLocation, length: Int
  )
    -> Diagnostic
  {
    .error(
      "\(part) refers to steps.\(id), but \(part) is evaluated before any step runs", at: location,
      length: length, hint: "read step results in steps, or 'save' them to vars from the step")
  }

  static func cleanupReference(
    _ id: String, from step: String, at location: SourceLocation, length: Int
  )
    -> Diagnostic
  {
    .error(
      "step '\(step)' refers to the cleanup step '\(id)', but cleanup runs after every other step",
      at: location, length: length, hint: "move '\(id)' under 'steps:'")
  }

  static func duplicateSave(_ name: Located<String>, first: Located<String>, firstStep: String) -> Diagnostic {
    .error(
      "'\(name.value)' is already saved by step '\(firstStep)'", at: name.location, length: name.value.count,
      notes: [Note("first saved here", at: first.location)],
      hint: "save it under another name, e.g. '\(name.value)_2'")
  }

  static func saveShadowsVar(_ name: Located<String>, declared: SourceLocation) -> Diagnostic {
    Diagnostic(
      .warning, "'\(name.value)' overwrites the var declared under 'vars'", at: name.location,
      length: name.value.count, notes: [Note("declared here", at: declared)],
      hint: "save it under another name unless replacing the var is intended")
  }
}
