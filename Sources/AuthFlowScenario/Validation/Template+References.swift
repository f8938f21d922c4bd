public import AuthFlowCore
import AuthFlowExpression

/// A read of `root.member…` inside an expression, located in the file.
struct ExpressionReference {
  var root: String
  /// The literal member names after the root (`steps.login.refresh_token` → login, refresh_token).
  var path: [String]
  var location: SourceLocation
  var length: Int
  /// Written to cope with the chain's absence (``Reference/isAbsenceHandled``).
  var isAbsenceHandled = false
}

extension Template {
  /// Every expression in the template with where its text starts, depth first.
  var expressions: [(TemplateString, SourceLocation)] {
    switch self {
    case .literal: return []
    case .expression(let string, let location): return [(string, location)]
    case .array(let items, _): return items.flatMap(\.expressions)
    case .object(let members, _): return members.flatMap(\.value.expressions)
    }
  }

  /// Every root reference made by the template's expressions.
  var references: [ExpressionReference] {
    expressions.flatMap { string, location in string.references(at: location) }
  }

  /// The environment variables the template reads as `env.NAME` without coping with their
  /// absence (``ExpressionReference/isAbsenceHandled``), each with where it is read: a tenant
  /// profile refuses to start when one of them is not set, rather than read it as `null`.
  public var requiredEnvironment: [EnvironmentRead] {
    references.compactMap(EnvironmentRead.init)
  }
}

/// A read of `env.NAME` that does not cope with the variable's absence, located in the file.
public struct EnvironmentRead: Sendable, Equatable {
  public var name: String
  public var location: SourceLocation
  public var length: Int

  public init(name: String, location: SourceLocation, length: Int) {
    self.name = name
    self.location = location
    self.length = length
  }

  /// The read `reference` makes, when it is `env.NAME` written without coping with its absence
  /// (``ExpressionReference/isAbsenceHandled``).
  init?(_ reference: ExpressionReference) {
    guard reference.root == "env", let name = reference.path.first, !reference.isAbsenceHandled else { return nil }
    self.init(name: name, location: reference.location, length: reference.length)
  }
}

extension TemplateString {
  /// The references of the template's expressions, located in the file; `location` is where the
  /// string's text starts.
  func references(at location: SourceLocation) -> [ExpressionReference] {
    references.map { reference in
      ExpressionReference(
        root: reference.root, path: reference.path, location: location.advanced(by: reference.offset),
        length: max(1, reference.length), isAbsenceHandled: reference.isAbsenceHandled)
    }
  }
}
