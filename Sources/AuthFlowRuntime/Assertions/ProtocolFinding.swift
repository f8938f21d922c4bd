public import AuthFlowCore
public import AuthFlowScenario
import Synchronization

/// A protocol rule the tenant's answer broke, found by an action as it read the answer: a token
/// response without `token_type`, an `expires_in` that is not a positive number, an authorization
/// error response with a `code` beside the `error`, a JWKS that publishes private key material.
/// These are the checks the OpenID Foundation's conformance suite makes on every module, made on
/// every step that reads such an answer; each names the suite's condition and the clause.
///
/// A finding of severity `error` fails the step and `warning` is reported — unless the step's
/// `expect` names the result path the finding is about (``path``): the step then tests that very
/// thing, and its expectation decides.
public struct ProtocolFinding: Sendable, Hashable {
  /// The conformance suite's condition (`ValidateExpiresIn`).
  public var condition: String
  /// The clause broken (`RFC 6749 §5.1`).
  public var clause: String
  /// What is wrong, in the tenant's terms.
  public var message: String
  public var severity: CheckSeverity
  /// The step result path the finding is about (`expires_in`, `authorization_response.iss`).
  public var path: [String]

  public init(_ condition: String, clause: String, _ message: String, severity: CheckSeverity = .error, path: [String])
  {
    self.condition = condition
    self.clause = clause
    self.message = message
    self.severity = severity
    self.path = path
  }

  /// The problem's text: the message, then the condition and the clause.
  public var text: String { "\(message) (\(condition), \(clause))" }

  /// Whether a step whose expectations name `expected` (each a result path) tests what this
  /// finding is about: one of them is the finding's path, or holds it (`authorization_response`
  /// holds `authorization_response.iss`). A check of another member beside it does not.
  func isTested(by expected: [[String]]) -> Bool {
    expected.contains { !$0.isEmpty && path.starts(with: $0) }
  }
}

/// Where an action records the findings of one attempt (``ActionContext/report(_:)``), and what
/// it asks of the scenario beside its result: a review (a `review` step), a skip (a `skip` step).
public final class StepFindings: Sendable {
  private let findings = Mutex<[ProtocolFinding]>([])
  private let requests = Mutex<(reviews: [String], skip: String?)>(([], nil))

  /// Asks a person to confirm `reason` (the scenario is reported for review).
  func requestReview(_ reason: String) {
    requests.withLock { if $0.reviews.count < Self.limit { $0.reviews.append(reason) } }
  }

  /// Ends the scenario as skipped, `reason` its skip reason.
  func skipScenario(because reason: String) {
    requests.withLock { $0.skip = reason }
  }

  /// The reviews asked for.
  public var reviews: [String] { requests.withLock { $0.reviews } }
  /// The reason the scenario is to end skipped, when a step asked.
  public var skip: String? { requests.withLock { $0.skip } }

  public init() {}

  /// The most findings one attempt keeps: a tenant that breaks a rule in every member of a long
  /// answer still gives a bounded report.
  public static let limit = 50

  func append(_ finding: ProtocolFinding) {
    findings.withLock { list in
      if list.count < Self.limit, !list.contains(finding) { list.append(finding) }
    }
  }

  public var all: [ProtocolFinding] { findings.withLock { $0 } }
}
