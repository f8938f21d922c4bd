public import AuthFlowCore

/// What a step's result holds, as its action declares it: the top-level fields (each with its
/// type and whether it is a secret) and whether the result may hold other members too.
///
/// `authflow validate` checks `steps.<id>.FIELD` and `expect` keys against a closed schema; an
/// open one (a user's claims, `set`'s own names, a My Account body) says what its other members
/// are and lets them through. The runtime masks every declared secret field of a step's result
/// (``maskingSecretFields(in:)``), and the generated docs list the fields.
public struct ResultSchema: Sendable, Hashable {
  /// The declared top-level members (`error` is implied: any action may answer with one).
  public var fields: [ResultField]
  /// Nil when the result holds only ``fields``; otherwise what its other members are ("the
  /// other claims the tenant returns"), which `authflow validate` does not check.
  public var otherMembers: String?

  /// A result with exactly these members (and `error`).
  public static func closed(_ fields: [ResultField]) -> ResultSchema {
    ResultSchema(fields: fields, otherMembers: nil)
  }

  /// A result with these members and others, described by `others` for the docs.
  public static func open(_ fields: [ResultField], others: String) -> ResultSchema {
    ResultSchema(fields: fields, otherMembers: others)
  }

  /// True when members besides ``fields`` may appear.
  public var isOpen: Bool { otherMembers != nil }

  /// The names a result path may start with, `error` included; nil when the result is open.
  public var checkedNames: Set<String>? {
    isOpen ? nil : Set(fields.map(\.name) + [ResultField.error.name])
  }

  /// The declared field named `name`.
  public func field(_ name: String) -> ResultField? {
    fields.first { $0.name == name }
  }

  /// `result` with every member declared secret wrapped as a secret (a JWT value already is one).
  public func maskingSecretFields(in result: Value) -> Value {
    guard case .object(var members) = result else { return result }
    for field in fields where field.isSecret {
      if let member = members[field.name] { members[field.name] = member.asSecret }
    }
    return .object(members)
  }
}
