public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// A step's action: one type per file, self-describing (docs/architecture.md, "Code style and the
/// codebases modelled on": SwiftLint's rules).
///
/// An action receives its parameters already evaluated (expressions resolved), does its work
/// through the context (HTTP, browsers, the tenant), and returns the step's result.
///
/// Adding one is writing one file in the folder of its flow family (`Actions/<Family>/`) and one
/// line in ``ActionRegistry``: its typed ``Parameter``s, its ``ActionSignature`` (listing them, and
/// its result as a ``ResultSchema``: each field's type and whether it is secret, closed or open),
/// documentation, an `example` and a `failingExample` (both run as tests), its ``ActionTraits``
/// (capabilities, those some parameter values need, error codes, failure classes, timeout, the
/// mock's clock, ID-token opt-in) and `run`. The interpreter, the runner, the schema and the docs read those
/// declarations; nothing about the action is written anywhere else (a test checks it). Then run
/// `authflow docs` and `authflow schema --output schemas/scenario.schema.json`.
public protocol Action: Sendable {
  /// The name, parameters and one-line summary; the parser validates steps against it and the
  /// JSON Schema and reference docs are generated from it.
  static var signature: ActionSignature { get }
  /// A longer description for the reference docs (Markdown).
  static var documentation: String { get }
  /// A complete scenario using the action. It runs as a test against the embedded mock, so the
  /// docs cannot drift from the code.
  static var example: String { get }
  /// What the action needs and how it behaves: capabilities, error codes, failure classes,
  /// timeout, use of the mock's clock, ID-token opt-in. The interpreter, the runner and the docs
  /// read it; nothing about one action is written down anywhere else.
  static var traits: ActionTraits { get }
  /// A scenario whose step `fails` fails as the action declares it can (a protocol error with its
  /// code, a flow or parameter failure, an environment failure). It runs as a test against the
  /// embedded mock, so every action has a failing path that is exercised.
  static var failingExample: FailingExample { get }

  init()

  /// Runs the action once. Throw `ActionError` for what is not a protocol outcome.
  func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome

  /// A failure that the step's `result` stands for although the action answered (`http`'s 5xx
  /// is the environment failing), given the paths the step's `expect` names; nil when none. The
  /// default: none.
  static func failure(in result: Value, expectations: [[String]]) -> ResultFailure?

  /// The outcome as the step sees it, after what the action does with every outcome. The default
  /// applies the ID-token opt-in (``IDTokenOptIn``) when ``ActionTraits/idTokenOptIn`` is set.
  static func completing(_ outcome: ActionOutcome, parameters: Value, context: ActionContext) async -> ActionOutcome
}

extension Action {
  public static func failure(in result: Value, expectations: [[String]]) -> ResultFailure? { nil }

  public static func completing(
    _ outcome: ActionOutcome, parameters: Value, context: ActionContext
  ) async -> ActionOutcome {
    guard traits.idTokenOptIn else { return outcome }
    return await IDTokenOptIn.apply(to: outcome, parameters: parameters, context: context)
  }
}

/// A failure a step's result stands for (see ``Action/failure(in:expectations:)``).
public struct ResultFailure: Sendable, Hashable {
  public var failureClass: FailureClass
  public var message: String

  public init(_ failureClass: FailureClass, _ message: String) {
    self.failureClass = failureClass
    self.message = message
  }
}

/// What an action produced.
public enum ActionOutcome: Sendable {
  /// The step's result (an object: credentials, an HTTP result, a page, …).
  case success(Value)
  /// The protocol answered with an error (`invalid_grant`, `login_required`, …). The step passes
  /// only if its `expect` names `error`. `result` holds the rest of the result (e.g. `response`).
  case protocolError(ProtocolError, result: Value)

  /// The result as `steps.<id>` sees it: for a protocol error, the result with an `error` member.
  public var resultValue: Value {
    switch self {
    case .success(let value): return value
    case .protocolError(let error, let result):
      var members = result.objectValue ?? [:]
      members["error"] = error.value
      return .object(members)
    }
  }
}

/// An OAuth / Auth0 error as a step result: `error.code`, `error.description`, `error.status`,
/// `error.body`.
public struct ProtocolError: Sendable, Hashable {
  public var code: String
  public var description: String?
  public var status: Int?
  public var body: Value?
  /// What authflow knows of the cause that the tenant's answer does not say (a code exchange sent
  /// without the PKCE verifier), added to the message of a step that did not expect the error; not
  /// part of the result.
  public var hint: String?

  public init(code: String, description: String? = nil, status: Int? = nil, body: Value? = nil, hint: String? = nil) {
    self.code = code
    self.description = description
    self.status = status
    self.body = body
    self.hint = hint
  }

  /// A rate limit's refusal: HTTP 429 (RFC 6585 §4), whatever the body calls it — Auth0's
  /// `too_many_requests` (docs/protocol.md §9), the Management API's `Too Many Requests`, another
  /// provider's name for it — but not brute-force protection's `too_many_attempts` nor the device
  /// flow's `slow_down`, which are answers (``RateLimitDelay/answerCodes``, the list the
  /// transport's retries read).
  public var isRateLimit: Bool { RateLimitDelay.isRateLimit(status: status ?? 0, code: code) }

  public var value: Value {
    .object([
      "code": .string(code),
      "description": description.map(Value.string) ?? .null,
      "status": status.map(Value.int) ?? .null,
      "body": body ?? .null,
    ])
  }
}

/// Why an action could not produce an outcome.
public struct ActionError: Error, Sendable {
  public enum Kind: Sendable, Hashable {
    /// The tenant could not be reached or misbehaved: environment, exit 3.
    case environment
    /// A parameter value is not usable (after evaluation); the scenario is wrong.
    case invalidParameter
    /// The flow could not go on (a login form without the expected field, a page that is not
    /// the one expected): an assertion-like failure.
    case flow
  }

  public var kind: Kind
  public var message: String
  /// The parameter at fault, when there is one.
  public var parameter: String?

  public init(_ kind: Kind, _ message: String, parameter: String? = nil) {
    self.kind = kind
    self.message = message
    self.parameter = parameter
  }

  public static func environment(_ message: String) -> ActionError { ActionError(.environment, message) }
  public static func flow(_ message: String) -> ActionError { ActionError(.flow, message) }
  public static func invalidParameter(_ name: String, _ message: String) -> ActionError {
    ActionError(.invalidParameter, "parameter '\(name)': \(message)", parameter: name)
  }

  /// The declared `parameter`'s value is not usable.
  public static func invalidParameter(_ parameter: some ParameterDeclaration, _ message: String) -> ActionError {
    invalidParameter(parameter.signature.name, message)
  }

  /// A duration past its documented range (see `InputLimits`).
  public static func durationTooLong(_ name: String, maximum: Duration, signed: Bool = false) -> ActionError {
    let limit = DurationText.describe(maximum)
    return invalidParameter(name, "the duration is too long (the range is \(signed ? "-" + limit : "0") to \(limit))")
  }
}

/// A scenario in which the action's step `fails` fails, and how (see ``Action/failingExample``).
public struct FailingExample: Sendable {
  /// How the step fails: one of the action's ``ActionTraits/failures``.
  public var failure: FailureClass
  /// For a protocol error: the `error.code`, one of the action's ``ActionTraits/errors``.
  public var code: StepErrorCode?
  /// The scenario, run against the embedded mock; its step with id `fails` uses the action.
  public var scenario: String

  public init(_ failure: FailureClass, code: StepErrorCode? = nil, scenario: String) {
    self.failure = failure
    self.code = code
    self.scenario = scenario
  }

  /// The id of the step that must fail.
  public static let stepID = "fails"
}
