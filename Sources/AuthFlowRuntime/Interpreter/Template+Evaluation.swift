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

  /// Where the first `${{ … }}` interpolated into a longer string anywhere in the tree reads
  /// nothing (see ``AuthFlowExpression/TemplateString/interpolationReadingNothing(in:)``); nil when
  /// none does.
  public func interpolationReadingNothing(in context: EvaluationContext) -> SourceLocation? {
    switch self {
    case .literal:
      return nil
    case .expression(let template, let location):
      return template.interpolationReadingNothing(in: context).map { location.advanced(by: $0) }
    case .array(let items, _):
      return items.lazy.compactMap { $0.interpolationReadingNothing(in: context) }.first
    case .object(let members, _):
      return members.lazy.compactMap { $0.value.interpolationReadingNothing(in: context) }.first
    }
  }

  /// Where the first value in the tree that is a whole `${{ … }}` naming a chain from `roots`
  /// (`json: { refresh_token: "${{ steps.a.body.refresh_tokn }}" }`) read nothing, given the
  /// tree's evaluation `value` (nothing is evaluated again); nil when none does. A call
  /// (`default(x, null)`) or a literal `null` is written on purpose, and is not one.
  public func chainReadingNothing(
    evaluatedTo value: Value, roots: Set<String>
  ) -> (chain: Reference, location: SourceLocation)? {
    switch (self, value) {
    case (.expression(.whole(let expression, _), let location), _):
      guard value.isNull, let chain = expression.referenceChain, roots.contains(chain.root) else { return nil }
      return (chain, location.advanced(by: chain.offset))
    case (.array(let items, _), .array(let values)) where items.count == values.count:
      return zip(items, values).lazy.compactMap { $0.chainReadingNothing(evaluatedTo: $1, roots: roots) }.first
    case (.object(let members, _), .object(let values)):
      return members.lazy.compactMap { member in
        values[member.key.value].flatMap { member.value.chainReadingNothing(evaluatedTo: $0, roots: roots) }
      }.first
    default:
      return nil
    }
  }

  /// Whether this template, evaluated to `value`, is an expression that read nothing — or, for a
  /// list, has an element that is one (`not_one_of: ["${{ a }}", "${{ b }}"]` with `b` missing).
  /// A literal `null` is not: it is written on purpose.
  public func readsNothing(evaluatedTo value: Value) -> Bool {
    switch (self, value) {
    case (.expression, _):
      return value.isNull
    case (.array(let items, _), .array(let values)) where items.count == values.count:
      return zip(items, values).contains { item, element in
        if case .expression = item { return element.isNull }
        return false
      }
    default:
      return false
    }
  }
}
