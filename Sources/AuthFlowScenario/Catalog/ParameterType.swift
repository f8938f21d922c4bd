/// The type of an action parameter, as the parser checks literal values and the JSON Schema
/// describes them. Any parameter may also be written as a `${{ … }}` expression.
public indirect enum ParameterType: Sendable, Hashable {
  /// Text; numbers are accepted and read as their text.
  case string
  case int
  /// An int or a floating-point number.
  case number
  case bool
  /// `90s`, `5m`, `2h`, `250ms` or a number of seconds.
  case duration
  /// A duration that may be negative (`-5m`): how far to move a clock, at most
  /// ``InputLimits/longestClockShift`` either way.
  case clockShift
  /// Any value.
  case any
  /// An object with the given parameters; nil means any object.
  case object([ParameterSignature]?)
  /// A list whose items all have the given type.
  case array(of: ParameterType)
  /// An object with any keys and any values (`parameters`, `headers`, …).
  case map
  /// One of a closed set of strings.
  case oneOf([String])
  /// The id of a step that runs before this one (an ancestor in the flow graph), written as
  /// itself, never as an expression: the validator checks it like a `steps.X` reference.
  case step

  /// What an error message calls a value of this type ("a duration such as 30s").
  public var description: String {
    switch self {
    case .string: return "a string"
    case .int: return "an integer"
    case .number: return "a number"
    case .bool: return "true or false"
    case .duration: return "a duration such as 30s, 5m or 2h"
    case .clockShift: return "a duration such as 5m, 2h or -5m"
    case .any: return "any value"
    case .object: return "a mapping"
    case .array(let element): return "a list of \(element.pluralDescription)"
    case .map: return "a mapping"
    case .oneOf(let choices): return "one of " + choices.map { "'\($0)'" }.joined(separator: ", ")
    case .step: return "the id of an earlier step (as written, not an expression)"
    }
  }

  var pluralDescription: String {
    switch self {
    case .string: return "strings"
    case .int: return "integers"
    case .number: return "numbers"
    case .bool: return "booleans"
    case .duration, .clockShift: return "durations"
    case .any: return "values"
    case .object, .map: return "mappings"
    case .array: return "lists"
    case .oneOf(let choices): return choices.map { "'\($0)'" }.joined(separator: " or ")
    case .step: return "step ids"
    }
  }
}
