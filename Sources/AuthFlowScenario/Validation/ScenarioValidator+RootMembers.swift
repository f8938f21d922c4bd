public import AuthFlowCore
import AuthFlowExpression

/// The members of the roots whose shape is fixed before any step runs: `tenant`, its
/// `endpoints`, and `scenario`. A missing member reads as `null`, so a typo there
/// (`tenant.endpoint.token`, `scenario.nmae`) would make `not_equals` or `exists: false` hold
/// whatever the tenant answers; it is an error at validate time instead. The runtime builds these
/// objects with exactly these names (`RootMembersTests` keeps the two in step).
public enum RootMembers {
  /// `tenant.<member>`.
  public static let tenant = [
    "name", "kind", "base_url", "issuer", "clients", "users", "capabilities", "settings", "endpoints", "inbox",
  ]
  /// `tenant.endpoints.<member>`: every endpoint a tenant may have (`null` where it has none).
  public static let endpoints = [
    "discovery", "authorization", "token", "userinfo", "revocation", "end_session", "logout", "jwks",
  ]
  /// `scenario.<member>`.
  public static let scenario = ["name", "title", "file", "tags"]
}

extension ScenarioValidator {
  /// `tenant.X`, `tenant.endpoints.X` and `scenario.X` must be members those roots have.
  func checkRootMembers(_ scenario: Scenario, templates: [[StepTemplate]]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var hints = SuggestionBudget()
    func check(_ references: [ExpressionReference]) {
      for reference in references {
        guard let (name, object, members) = Self.unknownMember(of: reference) else { continue }
        diagnostics.append(
          .unknownRootMember(
            name, of: object, members: members, at: reference.location, length: reference.length,
            hint: hints.hint(for: name, in: members)))
      }
    }
    for binding in scenario.vars { check(binding.value.references) }
    for template in scenario.matrix.flatMap(\.values) { check(template.references) }
    for step in templates {
      for template in step { check(template.references) }
    }
    return diagnostics
  }

  /// The first member of the reference that its object lacks: the name, the object as written
  /// (`tenant.endpoints`), and the members it has.
  static func unknownMember(of reference: ExpressionReference) -> (String, String, [String])? {
    let path = reference.path
    guard let first = path.first else { return nil }
    switch reference.root {
    case "tenant":
      guard RootMembers.tenant.contains(first) else { return (first, "tenant", RootMembers.tenant) }
      if first == "endpoints", path.count > 1, !RootMembers.endpoints.contains(path[1]) {
        return (path[1], "tenant.endpoints", RootMembers.endpoints)
      }
      return nil
    case "scenario":
      return RootMembers.scenario.contains(first) ? nil : (first, "scenario", RootMembers.scenario)
    default:
      return nil
    }
  }
}

extension Diagnostic {
  static func unknownRootMember(
    _ name: String, of object: String, members: [String], at location: SourceLocation, length: Int, hint: String?
  ) -> Diagnostic {
    .error(
      "\(object) has no member '\(name)' (it has: \(members.joined(separator: ", ")))", at: location, length: length,
      hint: hint ?? "a missing member would read as null, so this is an error rather than a check that cannot fail")
  }
}

/// A literal `tenant.users.NAME` or `tenant.clients.NAME` a scenario reads: a profile of
/// `authflow.yaml` (or of a mock tenant's fixture) that must exist, checked against the project
/// at validate time and against the running tenant before the scenario starts.
public struct TenantProfileReference: Sendable, Equatable {
  public enum Kind: String, Sendable {
    case user = "users"
    case client = "clients"
  }

  public var kind: Kind
  public var name: String
  /// The profile's field read, when the reference goes on (`tenant.users.alice.email` → email).
  public var field: String?
  public var location: SourceLocation
  public var length: Int
}

extension Scenario {
  /// Every literal `tenant.users.NAME` and `tenant.clients.NAME` of its vars, matrix and steps, in
  /// source order, but those written to cope with the profile's absence
  /// (`tenant.users.solo || tenant.users.alice`, `default(…)`, `!= null`): there `null` is meant.
  public var tenantProfileReferences: [TenantProfileReference] {
    var found: [TenantProfileReference] = []
    forEachExpression(mentioning: "tenant") { string, location, _ in
      for reference in string.references(at: location) {
        guard reference.root == "tenant", reference.path.count >= 2, !reference.isAbsenceHandled,
          let kind = TenantProfileReference.Kind(rawValue: reference.path[0])
        else { continue }
        found.append(
          TenantProfileReference(
            kind: kind, name: reference.path[1], field: reference.path.count > 2 ? reference.path[2] : nil,
            location: reference.location, length: reference.length))
      }
    }
    return found
  }

  /// Every `env.NAME` its vars, matrix and steps read without coping with the variable's absence
  /// (``Template/requiredEnvironment``), in source order: a run refuses to start a selected
  /// scenario that reads a variable the environment does not set, rather than read it as `null`.
  /// A step's `if:` is left out: there an unset variable means "off", as in a CI system's
  /// conditions (`if: ${{ env.RUN_SLOW == 'yes' }}`), and the step is reported skipped.
  public var environmentReads: [EnvironmentRead] {
    var found: [EnvironmentRead] = []
    forEachExpression(mentioning: "env") { string, location, isCondition in
      guard !isCondition else { return }
      found += string.references(at: location).compactMap(EnvironmentRead.init)
    }
    return found
  }

  /// Calls `body` with every expression of the scenario's vars, matrix and steps (cleanup
  /// included) that mentions `root`, in source order, and whether it is part of a step's `if:`.
  /// Directly over the step's parts, and only into expressions that mention the root: every
  /// scenario of a run is checked, and most read it in a few places, if any.
  func forEachExpression(
    mentioning root: String, _ body: (TemplateString, SourceLocation, _ isCondition: Bool) -> Void
  ) {
    func collect(_ template: Template, isCondition: Bool = false) {
      switch template {
      case .literal: return
      case .expression(let string, let location):
        if string.mentions(root: root) { body(string, location, isCondition) }
      case .array(let items, _): items.forEach { collect($0, isCondition: isCondition) }
      case .object(let members, _): members.forEach { collect($0.value, isCondition: isCondition) }
      }
    }
    vars.forEach { collect($0.value) }
    matrix.forEach { $0.values.forEach { collect($0) } }
    for step in steps + cleanup {
      collect(step.action.parameters)
      if let condition = step.condition { collect(condition, isCondition: true) }
      if let until = step.retry?.until { collect(until) }
      for expectation in step.expectations { expectation.matchers.forEach { collect($0.operand) } }
      step.save.forEach { collect($0.value) }
    }
  }
}
