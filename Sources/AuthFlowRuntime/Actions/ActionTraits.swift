import AuthFlowCore

/// What an action needs and how it behaves, declared by the action itself and read generically by
/// the interpreter (ID-token opt-in, result failures), the runner (clock exclusivity) and the
/// generated docs (capabilities, errors, timeouts): nothing about one action lives outside it.
public struct ActionTraits: Sendable {
  /// The capabilities (``CapabilityVocabulary``) a tenant needs for the action to work; a scenario
  /// using it should list them in `requires:` so tenants without them skip it.
  public var capabilities: [String]
  /// The capabilities the action needs only for some parameter values (``CapabilityUse``).
  public var capabilityUses: [CapabilityUse]
  /// The error codes the step's `error.code` can hold (the tenant's and authflow's own).
  public var errors: [StepErrorCode]
  /// How the step can fail besides its expectations.
  public var failures: Set<FailureClass>
  /// How long the action may take.
  public var timeout: TimeoutBehaviour
  /// How the action uses the mock tenant's virtual clock.
  public var mockClock: MockClockUse
  /// True when the action offers `validate_id_token: true` (``IDTokenOptIn``) for the credentials
  /// it returns.
  public var idTokenOptIn: Bool
  /// The parameter that picks the browser driving the action's login pages (`browser`), for an
  /// action that drives some: the interpreter skips a scenario whose step certainly drives them in
  /// chromium on a machine without chromium. Nil for the others.
  public var loginPagesBrowser: String?
  /// The parameter (of type ``ParameterType/step``) naming a step before which the interpreter
  /// notes the id of the tenant inbox's newest message (``InboxMark``): `outbox`'s `after:`.
  /// Nil for the others.
  public var inboxMarkParameter: String?

  public init(
    capabilities: [String] = [], capabilityUses: [CapabilityUse] = [], errors: [StepErrorCode] = [],
    failures: Set<FailureClass> = [.invalidParameter], timeout: TimeoutBehaviour = .step,
    mockClock: MockClockUse = .none, idTokenOptIn: Bool = false, loginPagesBrowser: String? = nil,
    inboxMarkParameter: String? = nil
  ) {
    self.loginPagesBrowser = loginPagesBrowser
    self.inboxMarkParameter = inboxMarkParameter
    self.capabilities = capabilities
    self.capabilityUses = capabilityUses
    self.errors = errors
    self.failures = failures
    self.timeout = timeout
    self.mockClock = mockClock
    self.idTokenOptIn = idTokenOptIn
  }

  /// The failure classes of an action calling the tenant: a protocol error answer, an environment
  /// failure (no answer, a 5xx), a parameter it cannot use.
  public static let tenantCall: Set<FailureClass> = [.protocolError, .environment, .invalidParameter]

  /// The failure classes of a browser flow: those of ``tenantCall`` and a flow that cannot go on.
  public static let browserFlow: Set<FailureClass> = [.protocolError, .environment, .invalidParameter, .flow]
}

/// One way a step can fail besides its expectations (each maps to a report status and exit code).
public enum FailureClass: String, Sendable, Hashable, CaseIterable {
  /// The tenant answered with an error: `error.code` is set; the step fails unless `expect`
  /// names `error` (exit 1).
  case protocolError = "protocol error"
  /// The tenant could not be reached or misbehaved (no answer, a 5xx): an environment error (exit 3).
  case environment
  /// The flow could not go on (a page without the expected form, nothing in the outbox): the
  /// step fails (exit 1).
  case flow
  /// A parameter's value is not usable once evaluated: the step fails (exit 1).
  case invalidParameter = "invalid parameter"

  /// What the failure means, for the docs.
  public var summary: String {
    switch self {
    case .protocolError:
      return "the tenant answers with an error: `error.code` is set (the step fails unless `expect` names `error`)"
    case .environment: return "the tenant cannot be reached or answers 5xx: an environment error, exit 3"
    case .flow: return "the flow cannot go on: the step fails with the reason"
    case .invalidParameter: return "a parameter's evaluated value is not usable: the step fails naming the parameter"
    }
  }
}

/// How long an action may take.
public enum TimeoutBehaviour: Sendable, Hashable {
  /// One exchange (or a short series), bounded by the step's `timeout:` (the run's default step
  /// timeout unless the step gives one).
  case step
  /// Polls until an answer comes or its own `parameter` limit (default `defaultLimit`) passes;
  /// the step's `timeout:` still bounds the whole.
  case polls(parameter: String, defaultLimit: Duration)
  /// Sleeps for its `parameter`; the step's `timeout:` must be longer.
  case sleeps(parameter: String)

  /// One sentence for the docs.
  public var summary: String {
    switch self {
    case .step:
      return "Bounded by the step's `timeout:` (the run's default step timeout unless the step gives one)."
    case .polls(let parameter, let limit):
      return
        "Polls until it has an answer or `\(parameter)` (default \(DurationText.format(limit))) has passed; the step's `timeout:` bounds the whole."
    case .sleeps(let parameter):
      return "Sleeps for `\(parameter)`; the step's `timeout:` must be longer."
    }
  }
}

extension TimeoutBehaviour {
  /// Why a step of `action` that ran out of time did: nil for one that makes a single exchange
  /// (the step's own timeout message says enough).
  public func stepTimeoutHint(action: String) -> String? {
    switch self {
    case .step: return nil
    case .polls(let parameter, _):
      return
        "`\(action)` was still polling (for up to its `\(parameter)`); give the step a longer `timeout:` or the action a shorter `\(parameter)`"
    case .sleeps(let parameter):
      return "`\(action)` sleeps for its `\(parameter)`; give the step a `timeout:` longer than that"
    }
  }
}

/// How an action uses the mock tenant's virtual clock (`/__mock/clock`).
public enum MockClockUse: Sendable, Hashable {
  case none
  /// Reads it (so what it computes agrees with the mock's time).
  case reads
  /// Moves it: the clock is shared by the whole run, so a scenario with such a step runs alone
  /// (``ScenarioInstance/movesMockClock``) and the clock is put back afterwards.
  case movesExclusively
}
