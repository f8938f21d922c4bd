public import AuthFlowCore
public import AuthFlowExpression
public import AuthFlowScenario

/// An expression that failed while a step was running, located in the YAML.
public struct EvaluationFailure: Error, Sendable {
  public var message: String
  public var location: SourceLocation
}

extension Template {
  /// Evaluates every expression in the tree. Object members keep their keys; a whole-string
  /// expression keeps its type.
  public func evaluate(in context: EvaluationContext) throws(EvaluationFailure) -> Value {
    switch self {
    case .literal(let value, _):
      return value
    case .expression(let template, let location):
      do {
        return try template.evaluate(in: context)
      } catch {
        throw EvaluationFailure(message: error.message, location: location.advanced(by: error.offset))
      }
    case .array(let items, _):
      var values: [Value] = []
      values.reserveCapacity(items.count)
      for item in items { values.append(try item.evaluate(in: context)) }
      return .array(values)
    case .object(let members, _):
      var values: [String: Value] = [:]
      for member in members { values[member.key.value] = try member.value.evaluate(in: context) }
      return .object(values)
    }
  }
}
