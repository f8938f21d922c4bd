public import AuthFlowCore
public import AuthFlowYAML

/// A parsed scenario file: the located model of docs/design.md §2. Built by `ScenarioParser`, checked by
/// `ScenarioValidator`, drawn by `FlowGraph`.
public struct Scenario: Sendable {
  /// The path the scenario was read from, as given on the command line.
  public var file: String
  public var title: Located<String>
  public var description: String?
  public var tags: [Located<String>]
  /// Capabilities the tenant must have; a tenant without them skips the scenario, with the reason.
  public var requires: [Located<String>]
  /// The tenant profile this scenario pins, if any (`--tenant` otherwise).
  public var tenant: Located<String>?
  /// The client profile name (`client:`); the tenant's `native` client by default.
  public var client: Located<String>?
  /// Evaluated in order; each may refer to the ones before it.
  public var vars: [Binding]
  public var matrix: [MatrixAxis]
  public var steps: [Step]
  /// Steps that always run last, whatever happened before.
  public var cleanup: [Step]
  public var timeout: Located<Duration>?
  /// Where the scenario starts (the document's first key).
  public var location: SourceLocation

  public init(
    file: String, title: Located<String>, description: String? = nil, tags: [Located<String>] = [],
    requires: [Located<String>] = [], tenant: Located<String>? = nil, client: Located<String>? = nil,
    vars: [Binding] = [], matrix: [MatrixAxis] = [], steps: [Step] = [], cleanup: [Step] = [],
    timeout: Located<Duration>? = nil, location: SourceLocation
  ) {
    self.file = file
    self.title = title
    self.description = description
    self.tags = tags
    self.requires = requires
    self.tenant = tenant
    self.client = client
    self.vars = vars
    self.matrix = matrix
    self.steps = steps
    self.cleanup = cleanup
    self.timeout = timeout
    self.location = location
  }
}

/// `name: value` under `vars` or `save`.
public struct Binding: Sendable {
  public var name: Located<String>
  public var value: Template

  public init(name: Located<String>, value: Template) {
    self.name = name
    self.value = value
  }
}

/// One `matrix` entry: a name and the values it takes.
public struct MatrixAxis: Sendable {
  public var name: Located<String>
  public var values: [Template]
  /// Each value as written in the file (`chrome`, `{a: 1}`), for instance names.
  public var labels: [String]

  public init(name: Located<String>, values: [Template], labels: [String]? = nil) {
    self.name = name
    self.values = values
    self.labels = labels ?? values.map(\.label)
  }
}

/// A step: one action, its dependencies, its condition, its retry policy and its expectations.
public struct Step: Sendable {
  /// The step's id: the `id` key, or `step-N` (1-based position) when the step has none.
  public var id: Located<String>
  /// False when the id was generated; generated ids cannot be referred to as `steps.X`.
  public var hasExplicitID: Bool
  public var name: String?
  public var action: ActionCall
  /// The `needs` list; nil means "the previous step in the list" (none for the first step).
  public var needs: [Located<String>]?
  /// The `if` condition; a false value skips the step.
  public var condition: Template?
  /// The `if` condition as written in the file, for graphs and reports.
  public var conditionText: String?
  public var retry: RetryPolicy?
  public var timeout: Located<Duration>?
  public var expectations: [Expectation]
  public var save: [Binding]
  /// `severity:` — `warning` makes the step's assertion failures (expectations, an unexpected
  /// protocol error, an action that could not do what it was asked, `retry.until`) warnings:
  /// reported, but the step passes. Environment errors, timeouts and evaluation errors stay
  /// errors. nil: `error`.
  public var severity: Located<CheckSeverity>?
  /// `client:` — the client profile this step's action uses instead of the scenario's (a native →
  /// web SSO flow); nil: the scenario's.
  public var client: Located<String>?
  public var location: SourceLocation

  public init(
    id: Located<String>, hasExplicitID: Bool, name: String? = nil, action: ActionCall,
    needs: [Located<String>]? = nil, condition: Template? = nil, retry: RetryPolicy? = nil,
    timeout: Located<Duration>? = nil, expectations: [Expectation] = [], save: [Binding] = [],
    location: SourceLocation
  ) {
    self.id = id
    self.hasExplicitID = hasExplicitID
    self.name = name
    self.action = action
    self.needs = needs
    self.condition = condition
    self.retry = retry
    self.timeout = timeout
    self.expectations = expectations
    self.save = save
    self.location = location
  }

  /// What reports call the step: its name, else its id.
  public var displayName: String { name ?? id.value }
}

/// The action key of a step and its parameters (usually an object; some actions take a scalar,
/// e.g. `wait: 2s`).
public struct ActionCall: Sendable {
  public var name: Located<String>
  public var parameters: Template

  public init(name: Located<String>, parameters: Template) {
    self.name = name
    self.parameters = parameters
  }
}

/// `retry:` — run the step up to `attempts` times, waiting `delay` (times `backoff` each time)
/// between attempts; with `until`, retry until the expression holds, otherwise until the step passes.
public struct RetryPolicy: Sendable {
  public var attempts: Int
  public var delay: Duration
  public var backoff: Double
  public var until: Template?
  public var location: SourceLocation

  public init(
    attempts: Int, delay: Duration = .zero, backoff: Double = 1, until: Template? = nil, location: SourceLocation
  ) {
    self.attempts = attempts
    self.delay = delay
    self.backoff = backoff
    self.until = until
    self.location = location
  }
}

/// One `expect` entry: a path into the step's result and the matchers it must satisfy.
public struct Expectation: Sendable {
  /// The dotted path, e.g. `id_token.claims.email`, `status`, `error.code`.
  public var path: Located<String>
  /// Every matcher must hold. A plain value is one `equals` matcher.
  public var matchers: [Matcher]
  /// `severity:` beside the matchers; nil: the step's severity.
  public var severity: Located<CheckSeverity>?

  public init(path: Located<String>, matchers: [Matcher], severity: Located<CheckSeverity>? = nil) {
    self.path = path
    self.matchers = matchers
    self.severity = severity
  }

  /// The path's segments: split on dots, with `["a.b"]` and `[0]` as single segments.
  public var components: [String] {
    (try? ExpectPath.parse(path.value).get()) ?? path.value.split(separator: ".").map(String.init)
  }
}

/// A matcher of docs/design.md §2: which one (`Kind`, each described in `Matchers/`), its operand and
/// where it is written.
public struct Matcher: Sendable {
  public var kind: Kind
  /// The expected operand. For `within` it is an object `{ of: …, seconds: … }`.
  public var operand: Template
  public var location: SourceLocation

  public init(kind: Kind, operand: Template, location: SourceLocation) {
    self.kind = kind
    self.operand = operand
    self.location = location
  }
}

/// How much a failed check counts: an `error` fails the step (a MUST of a standard), a `warning`
/// is reported but the step passes (a SHOULD). A run whose only findings are warnings exits 0.
public enum CheckSeverity: String, Sendable, Hashable, Codable, CaseIterable {
  case error
  case warning
}
